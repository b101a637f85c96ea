import { randomUUID } from "node:crypto";
import { stringField, type AgentConfig } from "../../../domain/agent-config.js";
import type { Conversation } from "../../../domain/conversation.js";
import type { AdapterServices, AgentAdapter, AgentModel, AgentProvider, PrewarmOutcome, PrewarmTarget } from "../../../application/ports.js";
import type { WarmProcesses } from "../../../application/warm-pool/warm-pool-ports.js";
import { ClaudeCodeAdapter } from "./claude-code-adapter.js";
import { listClaudeModels } from "./claude-models.js";
import type { SessionTimings } from "./claude-session.js";
import { SessionPool } from "./session-pool.js";
import { initManagedConfig } from "../managed-config.js";
import type { ManagedAgentOptions } from "../managed-agent-options.js";
import { findOnPath } from "../../system/path-lookup.js";
import { quietCanUseToolWarning } from "./quiet-sdk-warning.js";
import { defaultModel, type SessionSpec } from "./session-options.js";
import { warmClaudeSdk } from "../agent-modules.js";
import { CLAUDE_CODE_GLYPH, CLAUDE_CODE_SETUP } from "./claude-code-setup.js";
import { ClaudeTranscriptKeeper } from "./claude-transcript-keeper.js";
import type { AgentSessionKeeper } from "../../../application/agent-sessions/session-keeper-ports.js";
import type { Logger } from "../../../application/ports.js";

export interface ClaudeCodeOptions extends ManagedAgentOptions {
  /** How long a conversation's warm `claude` process outlives its last turn. */
  readonly idleMs?: number;
  readonly timings?: Partial<SessionTimings>;
  readonly logger?: Logger;
}

/** Default warm-process lifetime after a turn; `COFFER_CLAUDE_IDLE_SECONDS` overrides it. */
export const DEFAULT_CLAUDE_IDLE_SECONDS = 300;

const DEFAULT_TIMINGS: SessionTimings = { interruptDeadlineMs: 2000, exitGraceMs: 1000, closeGraceMs: 2000 };

/** Claude Code, driven through the Claude Agent SDK and the `claude` CLI on the daemon's PATH. */
export class ClaudeCodeProvider implements AgentProvider {
  readonly agentKey = "claude_code";
  readonly displayName = "Claude Code";
  readonly setup = CLAUDE_CODE_SETUP;
  readonly glyph = CLAUDE_CODE_GLYPH;
  private readonly pool: SessionPool;
  private readonly keeper: AgentSessionKeeper | undefined;

  constructor(private readonly options: ClaudeCodeOptions) {
    quietCanUseToolWarning();
    this.keeper = options.sessionCopies && new ClaudeTranscriptKeeper(options.sessionCopies, options.env, options.logger);
    const idleMs = options.idleMs ?? idleSeconds(options.env) * 1000;
    this.pool = new SessionPool({
      idleMs,
      timings: { ...DEFAULT_TIMINGS, ...options.timings },
      warm: options.warm ?? UNBOUNDED,
      agentKey: this.agentKey,
      ...(options.ledger ? { ledger: options.ledger } : {}),
    });
  }

  async available(): Promise<boolean> {
    const installed = findOnPath("claude", this.options.env.PATH) !== null;
    // The owner is looking at the agents: a first turn may follow (agent-modules.ts).
    if (installed) this.warm();
    return installed;
  }

  listModels(): Promise<AgentModel[]> {
    return listClaudeModels(this.options.env, this.options.workspaceDir);
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
      adopted: (standInId) => this.options.adoptGateway?.(this.agentKey, standInId, conversation.id),
      ...(this.keeper ? { keeper: this.keeper } : {}),
    });
  }

  /**
   * Starts the process the next turn will take: the conversation's own (resuming its
   * session), or for a draft a spare with the settings the conversation will be created
   * with, under a stand-in gateway id until its first turn adopts it.
   */
  async prewarm(target: PrewarmTarget): Promise<PrewarmOutcome> {
    const executable = findOnPath("claude", this.options.env.PATH);
    if (!executable) return "skipped";
    const { env, workspaceDir } = this.options;
    if (target.conversation) {
      const { id, agentConfig } = target.conversation;
      const resume = stringField(agentConfig, "session_id");
      // A transcript the CLI lost is put back before the process resumes it; one that cannot be is
      // the turn's to handle (a fresh session seeded with the conversation), not a warm process's.
      if (resume && this.keeper && (await this.keeper.ensure(id, resume)) === "lost") return "skipped";
      const gateway = this.options.gateway?.(this.agentKey, id);
      const spec: SessionSpec = {
        executable,
        cwd: stringField(agentConfig, "cwd") ?? workspaceDir,
        model: stringField(agentConfig, "model") ?? defaultModel(env),
        ...(resume ? { resume } : {}),
        env,
        ...(gateway ? { gateway } : {}),
      };
      return this.pool.prewarm(id, spec);
    }
    // Settings the draft cannot be created with (a folder still being typed) warm nothing.
    const config = await initManagedConfig({ cwd: target.cwd, model: target.model }, workspaceDir).catch(() => null);
    if (!config) return "skipped";
    const standIn = `prewarm-${randomUUID()}`;
    const gateway = this.options.gateway?.(this.agentKey, standIn);
    const spec: SessionSpec = {
      executable,
      cwd: stringField(config, "cwd") ?? workspaceDir,
      model: stringField(config, "model") ?? defaultModel(env),
      env,
      ...(gateway ? { gateway } : {}),
    };
    return this.pool.prewarm(null, spec, standIn);
  }

  async onConversationDeleted(conversationId: string): Promise<void> {
    await this.pool.evict(conversationId);
    await this.keeper?.forget(conversationId);
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

/** No daemon pool given (a provider built alone, in a test): every process gets room. */
const UNBOUNDED: WarmProcesses = {
  slot: async () => ({ fill: () => ({ touch() {}, idle() {}, gone() {} }), cancel() {} }),
};

function idleSeconds(env: NodeJS.ProcessEnv): number {
  const raw = env.COFFER_CLAUDE_IDLE_SECONDS;
  if (raw === undefined || raw === "") return DEFAULT_CLAUDE_IDLE_SECONDS;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`COFFER_CLAUDE_IDLE_SECONDS must be a non-negative number, got "${raw}"`);
  return n;
}
