import { ROUTES } from "@coffer/protocol";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";

/** The owner's upstream MCP servers, the gateway's catalogue, and its invocation log. */
export function mcpServerRoutes(bind: RouteBinder, { mcp }: HttpDeps): void {
  const servers = mcp.servers;
  bind
    .route(ROUTES.listMcpServers, () => ({ servers: servers.list() }))
    .route(ROUTES.createMcpServer, ({ body }) => servers.create(body))
    .route(ROUTES.getMcpServer, ({ params }) => servers.get(params.name))
    .route(ROUTES.updateMcpServer, ({ params, body }) => servers.update(params.name, body))
    .route(ROUTES.deleteMcpServer, ({ params }) => servers.remove(params.name))
    .route(ROUTES.enableMcpServer, ({ params }) => servers.setEnabled(params.name, true))
    .route(ROUTES.disableMcpServer, ({ params }) => servers.setEnabled(params.name, false))
    .route(ROUTES.listMcpTools, () => ({ tools: servers.tools() }))
    .route(ROUTES.listMcpInvocations, ({ query }) => mcp.invocations.list(query));
}
