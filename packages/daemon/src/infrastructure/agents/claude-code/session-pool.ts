import type { PrewarmOutcome } from "../../../application/ports.js";
import type { AgentProcessLedger, WarmLease, WarmProcesses, WarmSlot } from "../../../application/warm-pool/warm-pool-ports.js";
import { ClaudeSession, type SessionTimings } from "./claude-session.js";
import { sessionKey, type SessionSpec } from "./session-options.js";

interface Entry {
  readonly session: ClaudeSession;
  idleTimer: NodeJS.Timeout | null;
  lease: WarmLease;
  /** The conversation served; null while a spare waits for the draft it was started for. */
  conversationId: string | null;
  /** A spare's stand-in conversation id (its gateway credential names it until adopted). */
  readonly spareId: string | null;
  readonly key: string;
  /** Lent to a turn (acquire → release): busy for the pool even before the turn's first await. */
  inUse: boolean;
}

export interface SessionPoolOptions {
  readonly idleMs: number;
  readonly timings: SessionTimings;
  /** The daemon's bounded warm pool: room for each new process, least-recently-used eviction. */
  readonly warm: WarmProcesses;
  readonly ledger?: AgentProcessLedger;
  readonly agentKey: string;
}

/**
 * Warm Claude Code sessions, one per active conversation, plus at most one spare per start
 * spec (cwd, model) pre-warmed for a draft. A turn takes its conversation's session (a spare
 * that fits, else a new one) and gives it back; a session left idle for `idleMs` is closed,
 * as is one whose cwd or model no longer matches, and the application's warm pool may evict
 * an idle one for room (the next turn resumes its session, as after the idle timeout).
 */
export class SessionPool {
  private readonly entries = new Map<string, Entry>();
  /** Pre-warmed for a draft, by session key: adopted by the first turn that fits. */
  private readonly spares = new Map<string, Entry>();

  constructor(private readonly options: SessionPoolOptions) {}

  /**
   * The warm session when it still fits `spec`; otherwise a spare that fits (a fresh
   * session only) or a new one (resuming `spec.resume`) once the old process has gone, so
   * two never share a transcript.
   */
  async acquire(conversationId: string, spec: SessionSpec, onAdopt?: (spareId: string) => void): Promise<ClaudeSession> {
    for (;;) {
      const entry = this.entries.get(conversationId);
      if (entry) {
        this.stopIdleTimer(entry);
        const fits = entry.session.usable && !entry.session.busy && entry.session.key === sessionKey(spec);
        if (fits) {
          entry.inUse = true;
          entry.lease.touch();
          return entry.session;
        }
        await this.evict(conversationId);
        continue;
      }
      if (!spec.resume) {
        const spare = this.takeSpare(spec);
        if (spare) {
          spare.entry.conversationId = conversationId;
          this.entries.set(conversationId, spare.entry);
          spare.entry.inUse = true;
          spare.entry.lease.touch();
          onAdopt?.(spare.id);
          return spare.entry.session;
        }
      }
      const slot = await this.options.warm.slot("turn");
      if (!slot) throw new Error("the warm pool refused a turn"); // never: a turn always gets a slot
      if (this.entries.has(conversationId)) {
        slot.cancel(); // a pre-warm for this conversation landed while we waited for room
        continue;
      }
      return (await this.start(conversationId, spec, slot, { inUse: true })).session;
    }
  }

  /**
   * Start a conversation's process ahead of its next turn (the owner is typing), or a
   * spare for a draft (`conversationId` null; `spareId` names it until a turn adopts it).
   * Never past the warm pool's cap.
   */
  async prewarm(conversationId: string | null, spec: SessionSpec, spareId?: string): Promise<PrewarmOutcome> {
    const key = sessionKey(spec);
    const warm = conversationId ? this.entries.get(conversationId) : this.spares.get(key);
    if (warm?.session.usable) {
      warm.lease.touch();
      // The owner is typing to it: its idle timeout starts again, so it is still there on Send.
      if (!warm.inUse && !warm.session.busy) this.armIdleTimer(warm);
      return "warm";
    }
    if (warm && !warm.inUse) await (conversationId ? this.evict(conversationId) : this.closeSpare(key, warm)); // its process died
    const slot = await this.options.warm.slot("prewarm");
    if (!slot) return "skipped";
    if (conversationId ? this.entries.has(conversationId) : this.spares.has(key)) {
      slot.cancel();
      return "warm";
    }
    const entry = await this.start(conversationId, spec, slot, { inUse: false, ...(spareId ? { spareId } : {}) });
    if (!entry.inUse) this.armIdleTimer(entry); // in use: a turn took it meanwhile and its release arms it
    return "started";
  }

  /** A new session no matter what is warm (the stored session could not be resumed). */
  async replace(conversationId: string, spec: SessionSpec, onAdopt?: (spareId: string) => void): Promise<ClaudeSession> {
    await this.evict(conversationId);
    return this.acquire(conversationId, spec, onAdopt);
  }

  /** The turn is over: keep the session warm until it idles out (or the pool needs room). */
  release(conversationId: string, session: ClaudeSession): void {
    const entry = this.entries.get(conversationId);
    if (!entry || entry.session !== session) return;
    entry.inUse = false;
    if (!session.usable) {
      void this.evict(conversationId);
      return;
    }
    this.armIdleTimer(entry);
    entry.lease.idle();
  }

  warm(conversationId: string): ClaudeSession | undefined {
    return this.entries.get(conversationId)?.session;
  }

  /** Every warm process with what it serves (stats). */
  sessions(): { readonly conversationId: string | null; readonly session: ClaudeSession }[] {
    return [...this.entries.values(), ...this.spares.values()].map((e) => ({ conversationId: e.conversationId, session: e.session }));
  }

  /** Close the conversation's session; resolves once its process has gone. */
  evict(conversationId: string): Promise<void> {
    const entry = this.entries.get(conversationId);
    if (!entry) return Promise.resolve();
    this.entries.delete(conversationId);
    return this.close(entry);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((id) => this.evict(id)));
    await Promise.all([...this.spares.keys()].map((key) => this.closeSpare(key)));
  }

  private async start(
    conversationId: string | null,
    spec: SessionSpec,
    slot: WarmSlot,
    { inUse, spareId }: { readonly inUse: boolean; readonly spareId?: string },
  ): Promise<Entry> {
    const key = sessionKey(spec);
    let session: ClaudeSession;
    try {
      const { query } = await import("@anthropic-ai/claude-agent-sdk");
      // A turn and a pre-warm for the same conversation can both get here: the first one started wins.
      const existing = conversationId ? this.entries.get(conversationId) : this.spares.get(key);
      if (existing) {
        slot.cancel();
        this.stopIdleTimer(existing);
        if (inUse) existing.inUse = true;
        return existing;
      }
      const { ledger, agentKey } = this.options;
      session = new ClaudeSession(spec, this.options.timings, query, ledger ? { ledger, agentKey, conversationId } : undefined);
    } catch (err) {
      slot.cancel();
      throw err;
    }
    // The lease is set just below: fill() needs the entry to describe it.
    const entry: Entry = { session, idleTimer: null, conversationId, spareId: spareId ?? null, key, inUse, lease: null as unknown as WarmLease };
    entry.lease = slot.fill({
      agentKey: this.options.agentKey,
      get conversationId() {
        return entry.conversationId;
      },
      get pid() {
        return session.pid;
      },
      get busy() {
        return entry.inUse || session.busy;
      },
      evict: () => (entry.conversationId === null ? this.closeSpare(key, entry) : this.evictEntry(entry)),
    });
    void session.exited.then(() => entry.lease.gone());
    if (conversationId) this.entries.set(conversationId, entry);
    else this.spares.set(key, entry);
    return entry;
  }

  /** Evict this entry if it is still the conversation's (the pool's eviction path). */
  private evictEntry(entry: Entry): Promise<void> {
    const id = entry.conversationId;
    if (id && this.entries.get(id) === entry) return this.evict(id);
    return this.close(entry);
  }

  private closeSpare(key: string, only?: Entry): Promise<void> {
    const entry = this.spares.get(key);
    if (!entry || (only && entry !== only)) return only ? this.close(only) : Promise.resolve();
    this.spares.delete(key);
    return this.close(entry);
  }

  private takeSpare(spec: SessionSpec): { entry: Entry; id: string } | null {
    const key = sessionKey(spec);
    const entry = this.spares.get(key);
    if (!entry) return null;
    this.spares.delete(key);
    this.stopIdleTimer(entry);
    if (!entry.session.usable) {
      void this.close(entry);
      return null;
    }
    return { entry, id: entry.spareId ?? "" };
  }

  private close(entry: Entry): Promise<void> {
    this.stopIdleTimer(entry);
    entry.lease.gone();
    return entry.session.close();
  }

  private armIdleTimer(entry: Entry): void {
    this.stopIdleTimer(entry);
    entry.idleTimer = setTimeout(() => {
      if (entry.inUse || entry.session.busy) return; // a turn took it meanwhile; release re-arms
      if (entry.conversationId === null) void this.closeSpare(entry.key, entry);
      else void this.evictEntry(entry);
    }, this.options.idleMs);
    entry.idleTimer.unref();
  }

  private stopIdleTimer(entry: Entry): void {
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    entry.idleTimer = null;
  }
}
