/**
 * The one long-lived `codex app-server` a daemon shares between all Codex conversations
 * (each is a thread in it). Started on first use, `initialize`d once per process, started
 * again on the next turn after it dies. Notifications are routed by thread id, so two
 * conversations streaming at once each see only their own.
 */
import type { AgentModel, Logger } from "../../../application/ports.js";
import { AppServerExited, AppServerProcess } from "./app-server-process.js";
import type { CodexLaunch } from "./codex-launch.js";
import type { ProcessOwner } from "../process-ledger-entry.js";
import { answerServerRequest, isToolApproval } from "./server-request-policy.js";
import type { ThreadListener } from "./turn-inbox.js";
import { DeclinedRequest } from "./json-rpc-connection.js";
import { toQuestions, toResponse, type UserInputParams } from "./user-input.js";
import { formQuestions } from "./elicitation-form.js";

/** The app-server could not be started or would not complete `initialize`. */
export class AppServerStartFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AppServerStartFailed";
  }
}

export interface CodexAppServerOptions {
  readonly launch: () => CodexLaunch;
  readonly logger: Logger;
  readonly clientVersion: string;
  readonly initializeTimeoutMs?: number;
  /** Where the app-server process is written down while it runs (orphan reaping). */
  readonly owner?: ProcessOwner;
}

/** One running, initialized app-server process. */
export class LiveAppServer {
  private readonly listeners = new Map<string, Set<ThreadListener>>();
  /** Each thread's cumulative token total, as last reported (also on resume). */
  readonly threadTotals = new Map<string, number>();
  /** Turns Codex is still running, by thread. */
  private readonly activeTurns = new Map<string, string>();
  private readonly idleWaiters = new Map<string, (() => void)[]>();
  private readonly closeWaiters = new Map<string, (() => void)[]>();
  private configuredModel: Promise<string | null> | null = null;
  exitReason: AppServerExited | null = null;

  constructor(
    readonly generation: number,
    readonly process: AppServerProcess,
  ) {}

  get rpc() {
    return this.process.connection;
  }

  get alive(): boolean {
    return this.exitReason === null;
  }

  /** The model asked the owner (request_user_input): held until the thread's running turn gets an answer. */
  async askOwner(params: UserInputParams): Promise<unknown> {
    const threadId = typeof params.threadId === "string" ? params.threadId : "";
    const listener = [...(this.listeners.get(threadId) ?? [])].find((l) => l.ask);
    if (!listener?.ask) throw new DeclinedRequest(-32603, "no turn is running in this thread to ask the owner");
    const answers = await listener.ask(toQuestions(params)).catch(() => {
      throw new DeclinedRequest(-32603, "the owner stopped the turn before answering");
    });
    return toResponse(params, answers);
  }

  /**
   * An MCP server's form wants the owner's input: asked like any question; a form we cannot
   * render, or no running turn, is declined as before (server-request-policy.ts).
   */
  async askOwnerForm(params: unknown, fallback: () => unknown): Promise<unknown> {
    const form = formQuestions(params);
    const threadId = (params as { threadId?: unknown } | null)?.threadId;
    const listener = [...(this.listeners.get(typeof threadId === "string" ? threadId : "") ?? [])].find((l) => l.ask);
    if (!form || !listener?.ask) return fallback();
    try {
      const answers = await listener.ask(form.questions);
      return { action: "accept", content: form.toContent(answers), _meta: null };
    } catch {
      return { action: "cancel", content: null, _meta: null };
    }
  }

  /** Hear this thread's notifications until the returned function is called. */
  subscribe(threadId: string, listener: ThreadListener): () => void {
    let set = this.listeners.get(threadId);
    if (!set) this.listeners.set(threadId, (set = new Set()));
    set.add(listener);
    if (this.exitReason) listener.exited(this.exitReason);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(threadId) === set) this.listeners.delete(threadId);
    };
  }

  markTurnActive(threadId: string, turnId: string): void {
    this.activeTurns.set(threadId, turnId);
  }

  get hasActiveTurns(): boolean {
    return this.activeTurns.size > 0;
  }

  activeTurn(threadId: string): string | undefined {
    return this.activeTurns.get(threadId);
  }

  /** Resolves once the thread has no running turn, or after `timeoutMs`. */
  async waitIdle(threadId: string, timeoutMs: number): Promise<boolean> {
    if (!this.activeTurns.has(threadId) || !this.alive) return true;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      const waiters = this.idleWaiters.get(threadId) ?? [];
      waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
      this.idleWaiters.set(threadId, waiters);
    });
  }

  /**
   * Unloads a thread: `thread/unsubscribe`, then Codex's `thread/closed` (it unloads after
   * answering). Resolves once the thread is gone, or after `timeoutMs` regardless.
   */
  async unloadThread(threadId: string, timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const closed = new Promise<boolean>((resolve) => {
      const waiters = this.closeWaiters.get(threadId) ?? [];
      waiters.push(() => resolve(true));
      this.closeWaiters.set(threadId, waiters);
      timer = setTimeout(() => resolve(false), timeoutMs);
      timer.unref();
    });
    try {
      const res = await this.rpc.request<{ status?: string }>("thread/unsubscribe", { threadId });
      // Nothing to wait for when Codex had no such thread loaded, or we were not subscribed.
      if (res.status !== "unsubscribed") return res.status === "notLoaded";
      return await closed;
    } finally {
      clearTimeout(timer);
      this.closeWaiters.delete(threadId);
    }
  }

  /** The owner's configured default model (config.toml), read once per process. */
  defaultModel(): Promise<string | null> {
    this.configuredModel ??= this.rpc
      .request<{ config?: { model?: unknown } }>("config/read", {})
      .then((r) => (typeof r.config?.model === "string" ? r.config.model : null));
    return this.configuredModel;
  }

  /**
   * The models Codex offers in its own picker (`model/list`, hidden ones left out), with the
   * id its `model` option takes. Codex builds the list itself (its catalogue, refreshed from
   * the provider when signed in), so this answers without a turn.
   */
  async listModels(): Promise<AgentModel[]> {
    const out: AgentModel[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const r: ModelListPage = await this.rpc.request<ModelListPage>("model/list", { cursor, includeHidden: false }, 20_000);
      for (const m of r.data ?? []) {
        const id = m.model || m.id;
        if (!m.hidden && id) out.push({ id, label: m.displayName || null, description: m.description || null });
      }
      if (!r.nextCursor) break;
      cursor = r.nextCursor;
    }
    return out;
  }

  dispatch(method: string, params: unknown): void {
    const p = params as { threadId?: unknown; turn?: { id?: unknown }; tokenUsage?: { total?: { totalTokens?: unknown } } } | null;
    const threadId = typeof p?.threadId === "string" ? p.threadId : null;
    if (method === "account/rateLimits/updated") {
      // Account-wide, no thread: every listening turn hears it (the mapper makes it plan_limits).
      for (const set of [...this.listeners.values()]) for (const listener of [...set]) listener.notification(method, params);
      return;
    }
    if (!threadId) return;
    if (method === "thread/closed") {
      for (const wake of this.closeWaiters.get(threadId) ?? []) wake();
      this.closeWaiters.delete(threadId);
    }
    if (method === "thread/tokenUsage/updated" && typeof p?.tokenUsage?.total?.totalTokens === "number") {
      this.threadTotals.set(threadId, p.tokenUsage.total.totalTokens);
    }
    for (const listener of [...(this.listeners.get(threadId) ?? [])]) listener.notification(method, params);
    if (method === "turn/completed" && this.activeTurns.get(threadId) === p?.turn?.id) this.settleTurn(threadId);
  }

  died(reason: AppServerExited): void {
    this.exitReason = reason;
    for (const set of this.listeners.values()) for (const listener of [...set]) listener.exited(reason);
    for (const threadId of [...this.activeTurns.keys()]) this.settleTurn(threadId);
    for (const waiters of this.closeWaiters.values()) for (const wake of waiters) wake();
    this.closeWaiters.clear();
  }

  private settleTurn(threadId: string): void {
    this.activeTurns.delete(threadId);
    for (const wake of this.idleWaiters.get(threadId) ?? []) wake();
    this.idleWaiters.delete(threadId);
  }
}

/** One page of `model/list` (codex app-server v2 ModelListResponse), the fields read. */
interface ModelListPage {
  readonly data?: readonly { id?: string; model?: string; displayName?: string; description?: string; hidden?: boolean }[];
  readonly nextCursor?: string | null;
}

export class CodexAppServer {
  private current: LiveAppServer | null = null;
  private starting: Promise<LiveAppServer> | null = null;
  private generation = 0;
  private closed = false;

  constructor(private readonly options: CodexAppServerOptions) {}

  /** The running app-server, started (again) when there is none. */
  session(): Promise<LiveAppServer> {
    if (this.closed) return Promise.reject(new AppServerStartFailed("the daemon is shutting down"));
    if (this.current?.alive) return Promise.resolve(this.current);
    this.starting ??= this.start().finally(() => (this.starting = null));
    return this.starting;
  }

  /** The running process id, if any (diagnostics and tests). */
  get pid(): number | undefined {
    return this.current?.alive ? this.current.process.pid : undefined;
  }

  /** Whether a turn is running in any thread (stats). */
  get busy(): boolean {
    return this.current?.alive === true && this.current.hasActiveTurns;
  }

  async close(): Promise<void> {
    this.closed = true;
    const live = this.current ?? (await this.starting?.catch(() => null));
    await live?.process.stop();
  }

  private async start(): Promise<LiveAppServer> {
    const { logger } = this.options;
    const launch = this.options.launch();
    if (!launch.binary) throw new AppServerStartFailed("Codex is not installed: no `codex` on the daemon's PATH");
    const generation = ++this.generation;
    let live: LiveAppServer | null = null;
    const process = new AppServerProcess(
      { ...launch, binary: launch.binary },
      {
        onNotification: (method, params) => live?.dispatch(method, params),
        onRequest: (method, params) => {
          logger.info("codex app-server asked the client", { method });
          if (method === "item/tool/requestUserInput" && live) return live.askOwner((params ?? {}) as UserInputParams);
          if (method === "mcpServer/elicitation/request" && live && !isToolApproval(params)) {
            return live.askOwnerForm(params, () => answerServerRequest(method, params));
          }
          return answerServerRequest(method, params);
        },
      },
      logger,
      this.options.owner,
    );
    live = new LiveAppServer(generation, process);
    const started = live;
    void process.exited.then((reason) => {
      started.died(reason);
      if (!this.closed) logger.warn("codex app-server stopped", { pid: process.pid, generation, reason: reason.message });
    });
    try {
      await process.connection.request(
        "initialize",
        {
          clientInfo: { name: "coffer", title: "Coffer", version: this.options.clientVersion },
          capabilities: { experimentalApi: false, requestAttestation: false },
        },
        this.options.initializeTimeoutMs ?? 30_000,
      );
    } catch (err) {
      await process.stop();
      throw new AppServerStartFailed(err instanceof Error ? err.message : String(err));
    }
    process.connection.notify("initialized");
    // Asked now, beside the first thread/start, rather than after it on the first turn's path;
    // a turn that needs it awaits the same answer (a failure is handled there).
    live.defaultModel().catch(() => undefined);
    logger.info("codex app-server ready", { pid: process.pid, generation, binary: launch.binary });
    this.current = live;
    return live;
  }
}
