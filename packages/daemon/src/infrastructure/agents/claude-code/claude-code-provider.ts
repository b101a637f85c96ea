import type { AgentConfig } from "../../../domain/agent-config.js";
import type { Conversation } from "../../../domain/conversation.js";
import type { AdapterServices, AgentAdapter, AgentProvider } from "../../../application/ports.js";
import { ClaudeCodeAdapter } from "./claude-code-adapter.js";
import type { SessionTimings } from "./claude-session.js";
import { SessionPool } from "./session-pool.js";
import { initManagedConfig } from "../managed-config.js";
import type { ManagedAgentOptions } from "../managed-agent-options.js";
import { findOnPath } from "../path-lookup.js";
import { quietCanUseToolWarning } from "./quiet-sdk-warning.js";
import { warmClaudeSdk } from "../agent-modules.js";

export interface ClaudeCodeOptions extends ManagedAgentOptions {
  /** How long a conversation's warm `claude` process outlives its last turn. */
  readonly idleMs?: number;
  readonly timings?: Partial<SessionTimings>;
}

/** Default warm-process lifetime after a turn; `COFFER_CLAUDE_IDLE_SECONDS` overrides it. */
export const DEFAULT_CLAUDE_IDLE_SECONDS = 300;

const DEFAULT_TIMINGS: SessionTimings = { interruptDeadlineMs: 2000, exitGraceMs: 1000, closeGraceMs: 2000 };

/** Claude Code, driven through the Claude Agent SDK and the `claude` CLI on the daemon's PATH. */
export class ClaudeCodeProvider implements AgentProvider {
  readonly agentKey = "claude_code";
  readonly displayName = "Claude Code";
  private readonly pool: SessionPool;

  constructor(private readonly options: ClaudeCodeOptions) {
    quietCanUseToolWarning();
    const idleMs = options.idleMs ?? idleSeconds(options.env) * 1000;
    this.pool = new SessionPool(idleMs, { ...DEFAULT_TIMINGS, ...options.timings });
  }

  async available(): Promise<boolean> {
    const installed = findOnPath("claude", this.options.env.PATH) !== null;
    // The owner is looking at the agents: a first turn may follow (agent-modules.ts).
    if (installed) this.warm();
    return installed;
  }

  initConversation(config: unknown): Promise<AgentConfig> {
    this.warm();
    return initManagedConfig(config, this.options.workspaceDir);
  }

  /** Never refuses: a missing `claude` ends the turn as one `agent_not_installed` turn_error. */
  async buildAdapter(conversation: Conversation, services: AdapterServices): Promise<AgentAdapter> {
    this.warm();
    return new ClaudeCodeAdapter(conversation, services, {
      pool: this.pool,
      env: this.options.env,
      workspaceDir: this.options.workspaceDir,
      ...(this.options.gateway ? { gateway: () => this.options.gateway?.(this.agentKey, conversation.id) } : {}),
    });
  }

  async onConversationDeleted(conversationId: string): Promise<void> {
    await this.pool.evict(conversationId);
  }

  /** A first turn may follow: load what it needs now rather than on its critical path. */
  private warm(): void {
    warmClaudeSdk();
    this.options.warmGateway?.();
  }

  async close(): Promise<void> {
    await this.pool.closeAll();
  }

  /** The process of a conversation's warm session, if any (tests, bench). */
  warmProcess(conversationId: string): { readonly pid: number | undefined; readonly exited: Promise<void> } | undefined {
    const session = this.pool.warm(conversationId);
    return session && { pid: session.pid, exited: session.exited };
  }
}

function idleSeconds(env: NodeJS.ProcessEnv): number {
  const raw = env.COFFER_CLAUDE_IDLE_SECONDS;
  if (raw === undefined || raw === "") return DEFAULT_CLAUDE_IDLE_SECONDS;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`COFFER_CLAUDE_IDLE_SECONDS must be a non-negative number, got "${raw}"`);
  return n;
}
