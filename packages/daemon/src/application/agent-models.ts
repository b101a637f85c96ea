import type { AgentRegistry } from "./agent-registry.js";
import type { AgentModel, Clock, Logger, MessageStore } from "./ports.js";

export interface AgentModelList {
  readonly models: readonly (AgentModel & { readonly source: "agent" | "recent" })[];
  readonly fromAgent: boolean;
  readonly reason: string | null;
}

/** How long the agent's own list is trusted: it changes with a CLI upgrade or a sign-in, not per turn. */
export const AGENT_MODELS_TTL_MS = 10 * 60_000;
const RECENT_LIMIT = 8;

/**
 * The model field's suggestions, per agent: the agent's own list (asked once, then cached —
 * asking starts the agent's CLI) followed by models recently used with that agent and not
 * in its list. When the agent cannot answer, the recent ones alone, with the reason.
 */
export class AgentModelCatalog {
  private readonly cache = new Map<string, { at: number; models: readonly AgentModel[] }>();
  private readonly inFlight = new Map<string, Promise<readonly AgentModel[]>>();

  constructor(
    private readonly deps: { registry: AgentRegistry; store: Pick<MessageStore, "recentModels">; clock: Clock; logger: Logger; ttlMs?: number },
  ) {}

  async list(agentKey: string): Promise<AgentModelList> {
    const provider = this.deps.registry.get(agentKey); // unknown agent → UNKNOWN_AGENT
    const recent = this.deps.store.recentModels(agentKey, RECENT_LIMIT);
    let own: readonly AgentModel[] = [];
    let reason: string | null = null;
    if (!provider.listModels) reason = `${provider.displayName} cannot list its models`;
    else if (!(await provider.available().catch(() => false))) reason = `${provider.displayName} is not installed on the daemon's PATH`;
    else {
      try {
        own = await this.ask(agentKey, () => provider.listModels!());
      } catch (err) {
        reason = `${provider.displayName} did not list its models: ${err instanceof Error ? err.message : String(err)}`;
        this.deps.logger.warn("agent model list failed", { agent: agentKey, reason });
      }
    }
    const listed = new Set(own.map((m) => m.id));
    return {
      models: [
        ...own.map((m) => ({ ...m, source: "agent" as const })),
        ...recent.filter((id) => !listed.has(id)).map((id) => ({ id, label: null, description: null, source: "recent" as const })),
      ],
      fromAgent: reason === null,
      reason,
    };
  }

  /** One question to the agent at a time; a success is kept for the TTL, a failure is not. */
  private ask(agentKey: string, fetch: () => Promise<AgentModel[]>): Promise<readonly AgentModel[]> {
    const hit = this.cache.get(agentKey);
    if (hit && this.deps.clock.now() - hit.at < (this.deps.ttlMs ?? AGENT_MODELS_TTL_MS)) return Promise.resolve(hit.models);
    let pending = this.inFlight.get(agentKey);
    if (!pending) {
      pending = fetch()
        .then((models) => {
          this.cache.set(agentKey, { at: this.deps.clock.now(), models });
          return models;
        })
        .finally(() => this.inFlight.delete(agentKey));
      this.inFlight.set(agentKey, pending);
    }
    return pending;
  }
}
