import type { AgentConfig } from "../../domain/agent-config.js";
import { AgentUnavailable } from "../../domain/errors.js";
import type { AgentAdapter, AgentProvider } from "../../application/ports.js";
import type { ManagedAgentOptions } from "./claude-code-provider.js";
import { initManagedConfig } from "./managed-config.js";
import { findOnPath } from "./path-lookup.js";

/** Codex, driven through `codex app-server` from the daemon's PATH. */
export class CodexProvider implements AgentProvider {
  readonly agentKey = "codex";
  readonly displayName = "Codex";

  constructor(private readonly options: ManagedAgentOptions) {}

  async available(): Promise<boolean> {
    return findOnPath("codex", this.options.env.PATH) !== null;
  }

  initConversation(config: unknown): Promise<AgentConfig> {
    return initManagedConfig(config, this.options.workspaceDir);
  }

  async buildAdapter(): Promise<AgentAdapter> {
    if (!(await this.available())) {
      throw new AgentUnavailable(this.agentKey, "Codex is not installed: no `codex` on the daemon's PATH");
    }
    throw new AgentUnavailable(this.agentKey, "Codex turns are not wired into this build yet");
  }

  async onConversationDeleted(): Promise<void> {}
}
