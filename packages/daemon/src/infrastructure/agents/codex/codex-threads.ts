/**
 * Which Codex thread each conversation talks to. A thread opened in the running
 * app-server is reused as is; after a daemon restart, an app-server crash or a release
 * it is resumed from `agent_config.session_id`. A thread Codex no longer has is replaced
 * by a fresh one, once, and the owner can see that in the audit log.
 *
 * Idle threads are released (`thread/unsubscribe`; the app-server is launched with
 * `thread_unload_delay_secs=0`, so that unloads them at once): every loaded thread slows
 * each turn start in the one app-server, and Codex never unloads a thread on its own while
 * we stay subscribed. A thread is released when it has been idle for `idleMs`, or at once
 * when more than `maxIdleLoaded` idle threads are loaded (least recently used first). A
 * thread with a running turn is never released.
 *
 * A draft's pre-warm opens a spare thread (`thread/start` with the folder and model the draft
 * will be created with, its gateway credential under a stand-in id), so the first message pays
 * no thread start: Codex connects the thread's MCP servers then, the costliest part of it. At
 * most one spare (the draft being typed); a pre-warm with other settings replaces it, and an
 * unclaimed one is unloaded after `idleMs`. The first turn of a fresh conversation with the
 * same settings adopts it; a conversation with a stored thread never does.
 */
import type { AdapterServices, Logger } from "../../../application/ports.js";
import type { AgentSessionKeeper } from "../../../application/agent-sessions/session-keeper-ports.js";
import type { GatewayAccess } from "../../../application/gateway/gateway-ports.js";
import type { Conversation } from "../../../domain/conversation.js";
import { stringField } from "../../../domain/agent-config.js";
import type { LiveAppServer } from "./codex-app-server.js";
import { JsonRpcError } from "./json-rpc-connection.js";
import { threadResumeParams, threadStartParams, type ThreadSettings } from "./thread-params.js";

export interface OpenThread {
  readonly id: string;
  /** The model Codex reports for the thread (its configured default when none was named). */
  readonly model: string | null;
  /** Where Codex writes the thread's rollout (what a resume reads), when it says. */
  readonly path?: string | null;
  /**
   * Set on the turn that opened a fresh thread because the stored one was lost for good (neither
   * Codex nor Coffer's copy had its rollout): that turn is seeded with the conversation so far.
   */
  readonly lost?: string;
}

interface ThreadResponse {
  thread: { id: string; path?: string | null };
  model?: string;
}

/** When idle threads are let go (COFFER_CODEX_IDLE_SECONDS, COFFER_CODEX_LOADED_THREADS). */
export interface ThreadRelease {
  /** How long a thread stays loaded after its last turn. */
  readonly idleMs: number;
  /** How many idle threads may stay loaded at once; the least recently used go first. */
  readonly maxIdleLoaded: number;
}

interface Entry extends OpenThread {
  readonly generation: number;
  readonly live: LiveAppServer;
  /** Turns using the thread now (opened, not yet settled). */
  inUse: number;
  /** Order of last use, for least-recently-used release. */
  lastUsed: number;
  /** Codex has a rollout to resume it from (a turn finished on it): only such a thread is released. */
  resumable: boolean;
  idleTimer: NodeJS.Timeout | null;
}

/** A thread opened for a draft before its conversation exists. */
interface Spare {
  /** The settings it was started with (folder, model): only a conversation with the same takes it. */
  readonly key: string;
  /** The id its gateway credential names until a turn adopts it. */
  readonly standIn: string;
  readonly generation: number;
  readonly live: LiveAppServer;
  readonly thread: Promise<OpenThread>;
  timer: NodeJS.Timeout | null;
}

export type SparePrewarm = "started" | "warm" | "skipped";

const spareKey = (settings: ThreadSettings) => JSON.stringify([settings.cwd ?? null, settings.model ?? null]);

/** How long a release waits for Codex to say the thread is unloaded before the next turn goes ahead anyway. */
const UNLOAD_TIMEOUT_MS = 5000;

export class CodexThreads {
  /** conversation id → the thread open in a given app-server generation. */
  private readonly open = new Map<string, Entry>();
  /** A release on its way to Codex: the conversation's next turn waits for it, then resumes. */
  private readonly releasing = new Map<string, Promise<void>>();
  private readonly releasedListeners = new Set<(conversationId: string, threadId: string) => void>();
  private useCounter = 0;
  private spare: Spare | null = null;

  constructor(
    private readonly logger: Logger,
    private readonly gateway?: (conversationId: string) => GatewayAccess | undefined,
    private readonly release: ThreadRelease = { idleMs: 300_000, maxIdleLoaded: 4 },
    /** Keeps each thread's rollout in the data dir and puts it back before a resume (absent: not kept). */
    private readonly keeper?: AgentSessionKeeper,
  ) {}

  /**
   * The conversation's thread, loaded and marked in use until {@link settle}. A fresh
   * conversation takes the draft's spare thread when it was started with the same settings;
   * `onAdopt` then binds the spare's stand-in gateway id to the conversation.
   */
  async openFor(
    live: LiveAppServer,
    conversation: Conversation,
    services: AdapterServices,
    onAdopt?: (standInId: string) => void,
  ): Promise<OpenThread> {
    await this.releasing.get(conversation.id);
    const known = this.open.get(conversation.id);
    if (known && known.generation === live.generation) {
      this.use(known);
      return known;
    }
    const settings: ThreadSettings = {
      cwd: stringField(conversation.agentConfig, "cwd"),
      model: stringField(conversation.agentConfig, "model"),
      gateway: this.gateway?.(conversation.id),
    };
    const stored = stringField(conversation.agentConfig, "session_id");
    const thread = stored ? await this.resume(live, conversation.id, stored, settings, services) : await this.fresh(live, settings, onAdopt);
    const entry: Entry = { ...thread, lost: undefined, generation: live.generation, live, inUse: 0, lastUsed: 0, resumable: thread.id === stored, idleTimer: null };
    this.open.set(conversation.id, entry);
    this.use(entry);
    return thread;
  }

  /**
   * The turn that opened the conversation's thread is over (`finished`: it reached turn_done,
   * so Codex has a rollout to resume from): the thread may now be released when idle.
   */
  settle(conversationId: string, threadId: string, finished: boolean): void {
    const entry = this.open.get(conversationId);
    if (!entry || entry.id !== threadId) return;
    entry.resumable ||= finished;
    entry.inUse = Math.max(0, entry.inUse - 1);
    entry.lastUsed = ++this.useCounter;
    if (entry.inUse > 0) return;
    this.armIdleTimer(conversationId, entry);
    this.trim(entry.live);
  }

  /** The conversation is gone: its thread is unloaded unless a turn still uses it. */
  forget(conversationId: string): void {
    const entry = this.open.get(conversationId);
    this.drop(conversationId);
    if (entry && entry.inUse === 0 && entry.live.alive && !entry.live.activeTurn(entry.id)) void this.unload(conversationId, entry);
  }

  private drop(conversationId: string): void {
    const entry = this.open.get(conversationId);
    if (entry?.idleTimer) clearTimeout(entry.idleTimer);
    this.open.delete(conversationId);
  }

  /**
   * Opens a spare thread for a draft with these settings (`warm` when it is open already).
   * `settings.gateway` carries a credential for `standIn`. Never throws: a spare Codex would
   * not start is `skipped`, and the first turn starts its thread as before.
   */
  async prewarm(live: LiveAppServer, settings: ThreadSettings, standIn: string): Promise<SparePrewarm> {
    const key = spareKey(settings);
    const current = this.spare;
    if (current && current.key === key && current.generation === live.generation && live.alive) {
      this.armSpareTimer(current);
      return "warm";
    }
    this.dropSpare();
    const spare: Spare = { key, standIn, generation: live.generation, live, thread: this.start(live, settings), timer: null };
    this.spare = spare;
    this.armSpareTimer(spare);
    try {
      const thread = await spare.thread;
      this.logger.debug("codex spare thread opened", { threadId: thread.id });
      return "started";
    } catch (err) {
      if (this.spare === spare) this.dropSpare();
      this.logger.warn("codex did not open a spare thread", { err: String(err) });
      return "skipped";
    }
  }

  /** The spare thread's id once open (diagnostics, tests); undefined when there is none. */
  async spareThread(): Promise<string | undefined> {
    return this.spare?.thread.then((t) => t.id).catch(() => undefined);
  }

  /** A fresh conversation's thread: the draft's spare when it fits, else a new one. */
  private async fresh(live: LiveAppServer, settings: ThreadSettings, onAdopt?: (standInId: string) => void): Promise<OpenThread> {
    const spare = this.spare;
    if (!spare || spare.key !== spareKey(settings) || spare.generation !== live.generation) return this.start(live, settings);
    this.spare = null;
    if (spare.timer) clearTimeout(spare.timer);
    try {
      const thread = await spare.thread;
      // From now on the stand-in's gateway credential speaks for this conversation.
      onAdopt?.(spare.standIn);
      return thread;
    } catch {
      return this.start(live, settings);
    }
  }

  private armSpareTimer(spare: Spare): void {
    if (spare.timer) clearTimeout(spare.timer);
    spare.timer = setTimeout(() => {
      if (this.spare === spare) this.dropSpare();
    }, this.release.idleMs);
    spare.timer.unref();
  }

  /** The spare goes unclaimed: unloaded (it holds no turn, so nothing is lost). */
  private dropSpare(): void {
    const spare = this.spare;
    if (!spare) return;
    this.spare = null;
    if (spare.timer) clearTimeout(spare.timer);
    void spare.thread.then(
      (thread) => (spare.live.alive ? spare.live.unloadThread(thread.id, UNLOAD_TIMEOUT_MS) : undefined),
      () => undefined,
    ).catch((err: unknown) => this.logger.warn("codex did not unload a spare thread", { err: String(err) }));
  }

  /** Calls `listener` each time a thread has been released (diagnostics, tests). */
  onReleased(listener: (conversationId: string, threadId: string) => void): () => void {
    this.releasedListeners.add(listener);
    return () => this.releasedListeners.delete(listener);
  }

  private use(entry: Entry): void {
    entry.inUse++;
    entry.lastUsed = ++this.useCounter;
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    entry.idleTimer = null;
  }

  private armIdleTimer(conversationId: string, entry: Entry): void {
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    entry.idleTimer = setTimeout(() => this.releaseThread(conversationId), this.release.idleMs);
    entry.idleTimer.unref();
  }

  /** Releases the least recently used idle threads of this app-server beyond the cap. */
  private trim(live: LiveAppServer): void {
    const idle = [...this.open.entries()]
      .filter(([, e]) => e.live === live && e.resumable && e.inUse === 0 && !live.activeTurn(e.id))
      .sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    for (const [conversationId] of idle.slice(0, Math.max(0, idle.length - this.release.maxIdleLoaded))) this.releaseThread(conversationId);
  }

  private releaseThread(conversationId: string): void {
    const entry = this.open.get(conversationId);
    // Never resumed from anything: releasing it would lose what the thread holds.
    if (!entry || entry.inUse > 0 || !entry.resumable) return;
    if (entry.live.activeTurn(entry.id)) {
      // Codex still runs a turn we stopped waiting for: unloading would cut it off. Try again later.
      this.armIdleTimer(conversationId, entry);
      return;
    }
    this.drop(conversationId);
    if (!entry.live.alive) return;
    const done = this.unload(conversationId, entry).finally(() => {
      if (this.releasing.get(conversationId) === done) this.releasing.delete(conversationId);
    });
    this.releasing.set(conversationId, done);
  }

  private unload(conversationId: string, entry: Entry): Promise<void> {
    return entry.live.unloadThread(entry.id, UNLOAD_TIMEOUT_MS).then(
      (unloaded) => {
        if (!unloaded) {
          this.logger.warn("codex did not confirm a thread was unloaded", { threadId: entry.id });
          return;
        }
        this.logger.debug("codex thread released", { conversationId, threadId: entry.id });
        // Unloaded, its rollout is complete on disk: the copy taken at turn/completed is refreshed.
        if (entry.resumable) void this.keeper?.keep(conversationId, entry.id, entry.path);
        for (const listener of [...this.releasedListeners]) listener(conversationId, entry.id);
      },
      (err: unknown) => this.logger.warn("codex did not release a thread", { threadId: entry.id, err: String(err) }),
    );
  }

  private async start(live: LiveAppServer, settings: ThreadSettings): Promise<OpenThread> {
    const res = await live.rpc.request<ThreadResponse>("thread/start", threadStartParams(settings));
    return { id: res.thread.id, model: res.model ?? null, path: res.thread.path ?? null };
  }

  private async resume(live: LiveAppServer, conversationId: string, threadId: string, settings: ThreadSettings, services: AdapterServices): Promise<OpenThread> {
    // Right before the resume: a rollout Codex lost comes back from Coffer's copy (issue 24).
    // "lost" is left to Codex to confirm (its answer below), as it always was.
    if ((await this.keeper?.ensure(conversationId, threadId)) === "restored") {
      this.logger.info("codex rollout put back from Coffer's copy", { conversationId, threadId });
      services.audit("agent_session_restored", { agent: "codex", session_id: threadId });
    }
    try {
      const res = await live.rpc.request<ThreadResponse>("thread/resume", threadResumeParams(threadId, settings));
      return { id: res.thread.id, model: res.model ?? null, path: res.thread.path ?? null };
    } catch (err) {
      if (!isThreadNotFound(err)) throw err;
      const fresh = await this.start(live, settings);
      this.logger.warn("codex thread was gone; started a fresh one", { lost: threadId, fresh: fresh.id });
      services.audit("codex_thread_resume_lost", { lost_thread_id: threadId, new_thread_id: fresh.id, reason: err.message });
      return { ...fresh, lost: threadId };
    }
  }
}

/** Codex 0.171 answers `no rollout found for thread id …` (-32600) for an unknown thread. */
export function isThreadNotFound(err: unknown): err is JsonRpcError {
  return err instanceof JsonRpcError && /no rollout found|thread not found|not found/i.test(err.message);
}
