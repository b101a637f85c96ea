import { randomUUID } from "node:crypto";
import { stringField, type AgentConfig } from "../../../domain/agent-config.js";
import type { Conversation } from "../../../domain/conversation.js";
import type {
  AdapterServices,
  AgentAdapter,
  AgentModel,
  AgentProvider,
  Logger,
  PrewarmOutcome,
  PrewarmTarget,
  SharedAgentProcess,
} from "../../../application/ports.js";
import type { ManagedAgentOptions } from "../managed-agent-options.js";
import { CodexAdapter } from "./codex-adapter.js";
import { CodexAppServer, type LiveAppServer } from "./codex-app-server.js";
import { resolveCodexLaunch } from "./codex-launch.js";
import { CodexThreads, type ThreadRelease } from "./codex-threads.js";
import { initManagedConfig } from "../managed-config.js";
import { notInstalledAdapter } from "../not-installed.js";
import { CODEX_GLYPH, CODEX_SETUP } from "./codex-setup.js";
import { CodexRolloutKeeper } from "./codex-rollout-keeper.js";
import type { AgentSessionKeeper } from "../../../application/agent-sessions/session-keeper-ports.js";

export interface CodexProviderOptions extends ManagedAgentOptions {
  /** Where the app-server's stderr and lifecycle go; silent when absent. */
  readonly logger?: Logger;
  readonly clientVersion?: string;
  readonly interruptTimeoutMs?: number;
  /** When idle threads are unloaded; defaults from COFFER_CODEX_IDLE_SECONDS and COFFER_CODEX_LOADED_THREADS. */
  readonly threadRelease?: ThreadRelease;
}

/** Defaults (README, "Configuration"): a thread outlives its last turn as long as a warm Claude process does. */
export const DEFAULT_CODEX_IDLE_SECONDS = 300;
export const DEFAULT_CODEX_LOADED_THREADS = 4;

const SILENT: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Codex, driven through ONE long-lived `codex app-server` (JSON-RPC on stdio) shared by
 * every Codex conversation of this daemon: each conversation is a Codex thread in it.
 */
export class CodexProvider implements AgentProvider {
  readonly agentKey = "codex";
  readonly displayName = "Codex";
  readonly setup = CODEX_SETUP;
  readonly glyph = CODEX_GLYPH;
  private readonly server: CodexAppServer;
  private readonly threads: CodexThreads;
  private readonly logger: Logger;
  private readonly keeper: AgentSessionKeeper | undefined;

  constructor(private readonly options: CodexProviderOptions) {
    this.logger = options.logger ?? SILENT;
    this.keeper = options.sessionCopies && new CodexRolloutKeeper(options.sessionCopies, options.env, this.logger);
    this.server = new CodexAppServer({
      launch: () => resolveCodexLaunch(options.env),
      logger: this.logger,
      clientVersion: options.clientVersion ?? "0.1.0",
      ...(options.ledger ? { owner: { ledger: options.ledger, agentKey: this.agentKey, conversationId: null } } : {}),
    });
    this.threads = new CodexThreads(
      this.logger,
      options.gateway && ((conversationId) => options.gateway?.(this.agentKey, conversationId)),
      options.threadRelease ?? threadReleaseFromEnv(options.env),
      this.keeper,
    );
  }

  async available(): Promise<boolean> {
    const installed = resolveCodexLaunch(this.options.env).binary !== null;
    // The owner is looking at the agents: a first turn may follow (agent-modules.ts).
    if (installed) this.warm();
    return installed;
  }

  /** Asked of the shared app-server (started if it is not running; it stays for the next turn). */
  async listModels(): Promise<AgentModel[]> {
    const live = await this.server.session();
    return live.listModels();
  }

  initConversation(config: unknown): Promise<AgentConfig> {
    this.warm();
    return initManagedConfig(config, this.options.workspaceDir);
  }

  async buildAdapter(conversation: Conversation, services: AdapterServices): Promise<AgentAdapter> {
    // Like every agent fault, a missing CLI ends the turn with one turn_error the owner can read.
    if (!(await this.available())) return notInstalledAdapter(this.displayName, "codex");
    return new CodexAdapter(
      {
        server: this.server,
        threads: this.threads,
        logger: this.logger,
        interruptTimeoutMs: this.options.interruptTimeoutMs ?? 3000,
        adopted: (standInId) => this.options.adoptGateway?.(this.agentKey, standInId, conversation.id),
        ...(this.keeper ? { keeper: this.keeper } : {}),
      },
      conversation,
      services,
    );
  }

  /** Thread ids Codex has loaded right now (`thread/loaded/list`); empty while no app-server runs. */
  async loadedThreads(): Promise<string[]> {
    if (this.server.pid === undefined) return [];
    const live = await this.server.session();
    return (await live.rpc.request<{ data: string[] }>("thread/loaded/list", {})).data;
  }

  /** Calls `listener` each time an idle thread has been unloaded (tests, diagnostics). */
  onThreadReleased(listener: (conversationId: string, threadId: string) => void): () => void {
    return this.threads.onReleased(listener);
  }

  async onConversationDeleted(conversationId: string): Promise<void> {
    this.threads.forget(conversationId);
    await this.keeper?.forget(conversationId);
  }

  /** The shared app-server's process id while it runs (diagnostics, tests). */
  get appServerPid(): number | undefined {
    return this.server.pid;
  }

  /**
   * The owner is typing to Codex: start the shared app-server if it is not running and, for a
   * draft, open a spare thread with the settings the conversation will be created with (its
   * gateway credential under a stand-in id until the first turn adopts it). A conversation's
   * own thread is opened by its turn, as before. Outside the warm pool's cap, like the
   * app-server itself; a start that fails is the next turn's to report.
   */
  async prewarm(target: PrewarmTarget): Promise<PrewarmOutcome> {
    const running = this.server.pid !== undefined;
    if (!running && !(await this.available())) return "skipped";
    let live: LiveAppServer;
    try {
      live = await this.server.session();
    } catch {
      return "skipped";
    }
    const server: PrewarmOutcome = running ? "warm" : "started";
    if (target.conversation) return server;
    // Settings the draft cannot be created with (a folder still being typed) open no thread.
    const config = await initManagedConfig({ cwd: target.cwd, model: target.model }, this.options.workspaceDir).catch(() => null);
    if (!config) return server;
    const standIn = `prewarm-${randomUUID()}`;
    const gateway = this.options.gateway?.(this.agentKey, standIn);
    const settings = { cwd: stringField(config, "cwd"), model: stringField(config, "model"), ...(gateway ? { gateway } : {}) };
    return (await this.threads.prewarm(live, settings, standIn)) === "started" ? "started" : server;
  }

  /** The draft's spare thread once open (tests, diagnostics). */
  spareThread(): Promise<string | undefined> {
    return this.threads.spareThread();
  }

  /** The one app-server every Codex conversation shares: outside the warm pool's cap (stats list it). */
  sharedProcesses(): SharedAgentProcess[] {
    const pid = this.server.pid;
    return pid === undefined ? [] : [{ pid, busy: this.server.busy }];
  }

  /** A first turn may follow: load what the gateway needs now rather than on its critical path. */
  private warm(): void {
    this.options.warmGateway?.();
  }

  async close(): Promise<void> {
    await this.server.close();
  }
}

function threadReleaseFromEnv(env: NodeJS.ProcessEnv): ThreadRelease {
  return {
    idleMs: nonNegative(env, "COFFER_CODEX_IDLE_SECONDS", DEFAULT_CODEX_IDLE_SECONDS) * 1000,
    maxIdleLoaded: Math.floor(nonNegative(env, "COFFER_CODEX_LOADED_THREADS", DEFAULT_CODEX_LOADED_THREADS)),
  };
}

function nonNegative(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return n;
}
