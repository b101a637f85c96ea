import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { GatewayPrincipal, GatewayService } from "../../application/gateway/gateway-ports.js";
import { mcpServerSdk } from "./mcp-sdk.js";

const INSTRUCTIONS =
  "Coffer's vault: the owner's skills, memory and knowledge (coffer__* tools) and their MCP servers (<server>__<tool>). " +
  "Use coffer__search_tools to find an upstream tool for an intent.";

/**
 * The gateway's Streamable HTTP endpoint, stateless: every POST gets a fresh low-level
 * `Server` and transport, so there are no sessions to expire (Claude Code never DELETEs
 * one) and no GET stream to hold (405, which both agents accept). Requests a tools-only
 * server does not implement (`server/discover`, `resources/list`) get JSON-RPC -32601.
 * Auth, Host and Origin are checked by the HTTP layer before this runs; it hands over the
 * principal the credential stood for, which builtin tools audit writes with.
 */
export function createGatewayEndpoint(
  gateway: GatewayService,
  version: string,
): (request: Request, principal: GatewayPrincipal) => Promise<Response> {
  return async (request, principal) => {
    if (request.method !== "POST") {
      return Response.json(
        { jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this gateway is stateless (POST only)" }, id: null },
        { status: 405, headers: { allow: "POST" } },
      );
    }
    const caller = callerOf(request);
    const { Server, WebStandardStreamableHTTPServerTransport, CallToolRequestSchema, ListToolsRequestSchema } = await mcpServerSdk();
    const server = new Server({ name: "coffer", version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: (await gateway.listTools()).map(
        (t): Tool => ({
          name: t.name,
          description: t.description,
          inputSchema: t.inputSchema as Tool["inputSchema"],
          ...(t.annotations ? { annotations: t.annotations } : {}),
        }),
      ),
    }));
    server.setRequestHandler(
      CallToolRequestSchema,
      async (req, extra) => (await gateway.callTool(req.params.name, req.params.arguments ?? {}, caller, extra.signal, principal)) as CallToolResult,
    );
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    // A client that goes away mid-call aborts the handlers; a finished exchange frees the pair.
    request.signal.addEventListener("abort", () => void server.close(), { once: true });
    return transport.handleRequest(request);
  };
}

/** Stateless requests carry no clientInfo after `initialize`; the User-Agent names the client. */
export function callerOf(request: Request): string {
  const agent = request.headers.get("user-agent")?.trim() ?? "";
  const product = /^([A-Za-z0-9._-]+)/.exec(agent)?.[1];
  return product ? product.slice(0, 64) : "unknown";
}

export type GatewayEndpoint = ReturnType<typeof createGatewayEndpoint>;

/**
 * Loads the gateway's MCP server SDK and runs one handshake through `endpoint` in-process
 * (`initialize`, `notifications/initialized`, `tools/list`; no HTTP, no auth, no tool call),
 * once per daemon. The first exchanges a fresh daemon served cost ≈ 86 + 18 + 12 ms against
 * ≈ 2 ms each afterwards (first use of the SDK's server, transport and schema code), and the
 * CLI's start-up waits on them; rehearsed when the owner shows intent, the first agent's
 * handshake is answered as fast as any later one (docs/decisions.md, "Speed and footprint").
 * A failed rehearsal is forgotten (the next intent tries again); real requests report errors.
 */
export function gatewayRehearsal(endpoint: GatewayEndpoint): () => Promise<void> {
  let rehearsed: Promise<void> | null = null;
  return () =>
    (rehearsed ??= rehearse(endpoint).catch(() => {
      rehearsed = null;
    }));
}

/** The rehearsal speaks as the owner (the daemon token's principal); it never calls a tool, so nothing is audited. */
const REHEARSAL_PRINCIPAL: GatewayPrincipal = { kind: "owner" };

async function rehearse(endpoint: GatewayEndpoint): Promise<void> {
  const { LATEST_PROTOCOL_VERSION } = await mcpServerSdk();
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "user-agent": "coffer-rehearsal" };
  const exchange = async (body: Record<string, unknown>): Promise<void> => {
    const res = await endpoint(new Request("http://127.0.0.1/mcp", { method: "POST", headers, body: JSON.stringify(body) }), REHEARSAL_PRINCIPAL);
    await res.text(); // read to its end: the SSE answer is what a client parses
    if (!res.ok) throw new Error(`gateway rehearsal: ${String(body.method)} answered ${res.status}`);
  };
  await exchange({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "coffer-rehearsal", version: "0" } },
  });
  await exchange({ jsonrpc: "2.0", method: "notifications/initialized" });
  await exchange({ jsonrpc: "2.0", id: 2, method: "tools/list" });
}
