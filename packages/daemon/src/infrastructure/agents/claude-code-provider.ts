import type { AgentConfig } from "../../domain/agent-config.js";
import { AgentUnavailable } from "../../domain/errors.js";
import type { AgentAdapter, AgentProvider } from "../../application/ports.js";
import { initManagedConfig } from "./managed-config.js";
import { findOnPath } from "./path-lookup.js";

export interface ManagedAgentOptions {
  /** Default working directory: `<data dir>/workspace`. */
  readonly workspaceDir: string;
  /** The daemon's environment; PATH decides availability. */
  readonly env: NodeJS.ProcessEnv;
}

/** Claude Code, driven through the `claude` CLI on the daemon's PATH. */
export class ClaudeCodeProvider implements AgentProvider {
  readonly agentKey = "claude_code";
  readonly displayName = "Claude Code";

  constructor(private readonly options: ManagedAgentOptions) {}

  async available(): Promise<boolean> {
    return findOnPath("claude", this.options.env.PATH) !== null;
  }

  initConversation(config: unknown): Promise<AgentConfig> {
    return initManagedConfig(config, this.options.workspaceDir);
  }

  async buildAdapter(): Promise<AgentAdapter> {
    if (!(await this.available())) {
      throw new AgentUnavailable(this.agentKey, "Claude Code is not installed: no `claude` on the daemon's PATH");
    }
    throw new AgentUnavailable(this.agentKey, "Claude Code turns are not wired into this build yet");
  }

  async onConversationDeleted(): Promise<void> {}
}
