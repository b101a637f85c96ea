import { ROUTES } from "@coffer/protocol";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";

export function agentRoutes(bind: RouteBinder, deps: HttpDeps): void {
  bind.route(ROUTES.listAgents, async () => {
    const agents = await deps.registry.list();
    return {
      agents: agents.map((a) => {
        // Absent until the agent has reported its plan limits (an API-key sign-in never does).
        const limits = deps.turns.reads.limitsOf(a.agentKey);
        return { agent_key: a.agentKey, display_name: a.displayName, available: a.available, setup: a.setup, glyph: a.glyph, ...(limits ? { limits } : {}) };
      }),
      ...(deps.workspace ? { workspace: deps.workspace } : {}),
    };
  });

  bind.route(ROUTES.listAgentModels, async ({ params }) => {
    const list = await deps.agentModels.list(params.agent);
    return { agent_key: params.agent, models: [...list.models], from_agent: list.fromAgent, reason: list.reason };
  });
  bind.route(ROUTES.prewarmAgent, async ({ params, body }) => ({
    state: await deps.footprint.prewarm.prewarm({
      agentKey: params.agent,
      ...(body.conversation_id !== undefined ? { conversationId: body.conversation_id } : {}),
      ...(body.cwd !== undefined ? { cwd: body.cwd } : {}),
      ...(body.model !== undefined ? { model: body.model } : {}),
    }),
  }));
}
