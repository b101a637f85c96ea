import { UnknownAgent } from "../domain/errors.js";
import type { AgentGlyph, AgentSetupOut } from "@coffer/protocol";
import type { AgentProvider } from "./ports.js";

export interface AgentSummary {
  readonly agentKey: string;
  readonly displayName: string;
  readonly available: boolean;
  readonly setup: AgentSetupOut;
  readonly glyph: AgentGlyph;
}

/** The only way the chat platform reaches an agent (docs/architecture.md). Order = registration order. */
export class AgentRegistry {
  private readonly providers = new Map<string, AgentProvider>();

  constructor(providers: readonly AgentProvider[] = []) {
    for (const p of providers) this.register(p);
  }

  register(provider: AgentProvider): void {
    if (this.providers.has(provider.agentKey)) {
      throw new Error(`agent "${provider.agentKey}" is registered twice`);
    }
    this.providers.set(provider.agentKey, provider);
  }

  get(agentKey: string): AgentProvider {
    const provider = this.providers.get(agentKey);
    if (!provider) throw new UnknownAgent(agentKey, this.keys());
    return provider;
  }

  find(agentKey: string): AgentProvider | undefined {
    return this.providers.get(agentKey);
  }

  keys(): string[] {
    return [...this.providers.keys()];
  }

  async list(): Promise<AgentSummary[]> {
    return Promise.all(
      [...this.providers.values()].map(async (p) => ({
        agentKey: p.agentKey,
        displayName: p.displayName,
        setup: p.setup,
        glyph: p.glyph,
        available: await p.available().catch(() => false),
      })),
    );
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.providers.values()].map((p) => p.close?.()));
  }
}
