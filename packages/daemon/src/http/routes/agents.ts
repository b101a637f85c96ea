import { ROUTES } from "@coffer/protocol";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";

export function agentRoutes(bind: RouteBinder, deps: HttpDeps): void {
  bind.route(ROUTES.listAgents, async () => {
    const agents = await deps.registry.list();
    return { agents: agents.map((a) => ({ agent_key: a.agentKey, display_name: a.displayName, available: a.available, limits: deps.engine.limits.get(a.agentKey) })) };
  });
}
