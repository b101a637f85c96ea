import type { AgentProvider, Logger } from "../../application/ports.js";
import { ClaudeCodeProvider } from "./claude-code/claude-code-provider.js";
import { CodexProvider } from "./codex/codex-provider.js";
import type { ManagedAgentOptions } from "./managed-agent-options.js";

/** Every agent the daemon offers, in picker order. Adding an agent = one line here. */
export function managedAgentProviders(options: ManagedAgentOptions & { readonly logger?: Logger }): AgentProvider[] {
  return [new ClaudeCodeProvider(options), new CodexProvider(options)];
}
