import type { AgentProvider, Logger } from "../../application/ports.js";
import { ClaudeCodeProvider, type ManagedAgentOptions } from "./claude-code-provider.js";
import { CodexProvider } from "./codex-provider.js";

/** Every agent the daemon offers, in picker order. Adding an agent = one line here. */
export function managedAgentProviders(options: ManagedAgentOptions & { readonly logger?: Logger }): AgentProvider[] {
  return [new ClaudeCodeProvider(options), new CodexProvider(options)];
}
