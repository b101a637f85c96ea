import type { AgentConfig } from "../../../domain/agent-config.js";
import type { Conversation } from "../../../domain/conversation.js";
import type { AdapterServices, AgentAdapter, AgentModel, AgentProvider, Logger, PrewarmOutcome, SharedAgentProcess } from "../../../application/ports.js";
import type { ManagedAgentOptions } from "../managed-agent-options.js";
import { CodexAdapter } from "./codex-adapter.js";
import { CodexAppServer } from "./codex-app-server.js";
import { resolveCodexLaunch } from "./codex-launch.js";
import { CodexThreads } from "./codex-threads.js";
import { initManagedConfig } from "../managed-config.js";
import { notInstalledAdapter } from "../not-installed.js";

export interface CodexProviderOptions extends ManagedAgentOptions {
  /** Where the app-server's stderr and lifecycle go; silent when absent. */
  readonly logger?: Logger;
  readonly clientVersion?: string;
  readonly interruptTimeoutMs?: number;
}

const SILENT: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Codex, driven through ONE long-lived `codex app-server` (JSON-RPC on stdio) shared by
 * every Codex conversation of this daemon: each conversation is a Codex thread in it.
 */
export class CodexProvider implements AgentProvider {
  readonly agentKey = "codex";
  readonly displayName = "Codex";
  private readonly server: CodexAppServer;
  private readonly threads: CodexThreads;
  private readonly logger: Logger;

  constructor(private readonly options: CodexProviderOptions) {
    this.logger = options.logger ?? SILENT;
    this.server = new CodexAppServer({
      launch: () => resolveCodexLaunch(options.env),
      logger: this.logger,
      clientVersion: options.clientVersion ?? "0.1.0",
      ...(options.ledger ? { owner: { ledger: options.ledger, agentKey: this.agentKey, conversationId: null } } : {}),
    });
    this.threads = new CodexThreads(this.logger, options.gateway && ((conversationId) => options.gateway?.(this.agentKey, conversationId)));
  }

  async available(): Promise<boolean> {
    return resolveCodexLaunch(this.options.env).binary !== null;
  }

  /** Asked of the shared app-server (started if it is not running; it stays for the next turn). */
  async listModels(): Promise<AgentModel[]> {
    const live = await this.server.session();
    return live.listModels();
  }

  initConversation(config: unknown): Promise<AgentConfig> {
    return initManagedConfig(config, this.options.workspaceDir);
  }

  async buildAdapter(conversation: Conversation, services: AdapterServices): Promise<AgentAdapter> {
    // Like every agent fault, a missing CLI ends the turn with one turn_error the owner can read.
    if (!(await this.available())) return notInstalledAdapter(this.displayName, "codex");
    return new CodexAdapter(
      { server: this.server, threads: this.threads, logger: this.logger, interruptTimeoutMs: this.options.interruptTimeoutMs ?? 3000 },
      conversation,
      services,
    );
  }

  async onConversationDeleted(conversationId: string): Promise<void> {
    this.threads.forget(conversationId);
  }

  /** The shared app-server's process id while it runs (diagnostics, tests). */
  get appServerPid(): number | undefined {
    return this.server.pid;
  }

  /**
   * The owner is typing to Codex: start the shared app-server if it is not running (a
   * conversation's thread is opened by its turn, as before). Outside the warm pool's cap, like
   * the app-server itself; a start that fails is the next turn's to report.
   */
  async prewarm(): Promise<PrewarmOutcome> {
    if (this.server.pid !== undefined) return "warm";
    if (!(await this.available())) return "skipped";
    return this.server.session().then(
      () => "started" as const,
      () => "skipped" as const,
    );
  }

  /** The one app-server every Codex conversation shares: outside the warm pool's cap (stats list it). */
  sharedProcesses(): SharedAgentProcess[] {
    const pid = this.server.pid;
    return pid === undefined ? [] : [{ pid, busy: this.server.busy }];
  }

  async close(): Promise<void> {
    await this.server.close();
  }
}
