import type { AgentListOut } from "@coffer/protocol";
import { Hono } from "hono";
import type { Env, HttpDeps } from "../deps.js";

export function agentRoutes(deps: HttpDeps): Hono<Env> {
  return new Hono<Env>().get("/chat/agents", async (c) => {
    const agents = await deps.registry.list();
    return c.json({
      agents: agents.map((a) => ({ agent_key: a.agentKey, display_name: a.displayName, available: a.available })),
    } satisfies AgentListOut);
  });
}
