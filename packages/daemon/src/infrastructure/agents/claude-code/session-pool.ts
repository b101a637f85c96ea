import { ClaudeSession, type SessionTimings } from "./claude-session.js";
import { sessionKey, type SessionSpec } from "./session-options.js";

interface Entry {
  readonly session: ClaudeSession;
  idleTimer: NodeJS.Timeout | null;
}

/**
 * Warm Claude Code sessions, one per active conversation. A turn takes its
 * conversation's session (starting one when none fits) and gives it back; a session
 * left idle for `idleMs` is closed, as is one whose cwd or model no longer matches.
 */
export class SessionPool {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly idleMs: number,
    private readonly timings: SessionTimings,
  ) {}

  /**
   * The warm session when it still fits `spec`; otherwise a new one (resuming
   * `spec.resume`) once the old process has gone, so two never share a transcript.
   */
  async acquire(conversationId: string, spec: SessionSpec): Promise<ClaudeSession> {
    const entry = this.entries.get(conversationId);
    if (entry) {
      if (entry.idleTimer) clearTimeout(entry.idleTimer);
      entry.idleTimer = null;
      const fits = entry.session.usable && !entry.session.busy && entry.session.key === sessionKey(spec);
      if (fits) return entry.session;
      await this.evict(conversationId);
    }
    const { query } = await import("@anthropic-ai/claude-agent-sdk");
    const session = new ClaudeSession(spec, this.timings, query);
    this.entries.set(conversationId, { session, idleTimer: null });
    return session;
  }

  /** A new session no matter what is warm (the stored session could not be resumed). */
  async replace(conversationId: string, spec: SessionSpec): Promise<ClaudeSession> {
    await this.evict(conversationId);
    return this.acquire(conversationId, spec);
  }

  /** The turn is over: keep the session warm until it idles out. */
  release(conversationId: string, session: ClaudeSession): void {
    const entry = this.entries.get(conversationId);
    if (!entry || entry.session !== session) return;
    if (!session.usable) {
      void this.evict(conversationId);
      return;
    }
    entry.idleTimer = setTimeout(() => void this.evict(conversationId), this.idleMs);
    entry.idleTimer.unref();
  }

  warm(conversationId: string): ClaudeSession | undefined {
    return this.entries.get(conversationId)?.session;
  }

  /** Close the conversation's session; resolves once its process has gone. */
  evict(conversationId: string): Promise<void> {
    const entry = this.entries.get(conversationId);
    if (!entry) return Promise.resolve();
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    this.entries.delete(conversationId);
    return entry.session.close();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((id) => this.evict(id)));
  }
}
