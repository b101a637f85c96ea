import { McpInvocationListQuery, McpServerCreate, McpServerPatch } from "@coffer/protocol";
import { Hono } from "hono";
import type { Env, HttpDeps } from "../deps.js";
import { jsonBody, queryParams } from "../validate.js";

/** The owner's upstream MCP servers, the gateway's catalogue, and its invocation log. */
export function mcpServerRoutes({ mcp }: HttpDeps): Hono<Env> {
  const servers = mcp.servers;
  return new Hono<Env>()
    .get("/mcp/servers", (c) => c.json({ servers: servers.list() }))
    .post("/mcp/servers", async (c) => c.json(servers.create(await jsonBody(c, McpServerCreate)), 201))
    .get("/mcp/servers/:name", (c) => c.json(servers.get(c.req.param("name"))))
    .patch("/mcp/servers/:name", async (c) => c.json(servers.update(c.req.param("name"), await jsonBody(c, McpServerPatch))))
    .delete("/mcp/servers/:name", async (c) => {
      await servers.remove(c.req.param("name"));
      return c.body(null, 204);
    })
    .post("/mcp/servers/:name/enable", (c) => c.json(servers.setEnabled(c.req.param("name"), true)))
    .post("/mcp/servers/:name/disable", (c) => c.json(servers.setEnabled(c.req.param("name"), false)))
    .get("/mcp/tools", (c) => c.json({ tools: servers.tools() }))
    .get("/mcp/invocations", (c) => c.json(servers.invocations(queryParams(c, McpInvocationListQuery))));
}
