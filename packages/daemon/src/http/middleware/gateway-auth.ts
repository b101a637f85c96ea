import { timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import type { GatewayCredentials, GatewayPrincipal } from "../../application/gateway/gateway-credentials.js";
import { OWNER } from "../../application/gateway/gateway-credentials.js";
import { ApiError } from "../errors.js";

/**
 * `/mcp` takes two credentials: the daemon token (the owner's own MCP clients) and the
 * gateway-only credential each agent launch gets. The second is accepted here and nowhere
 * else (`/api/v1` compares against the daemon token only), and the principal it stands for
 * is what the gateway records as the actor — never a header the client chose.
 */
export function gatewayPrincipal(c: Context, token: string, credentials: GatewayCredentials): GatewayPrincipal {
  const auth = c.req.header("authorization");
  const given = (auth?.startsWith("Bearer ") ? auth.slice(7).trim() : c.req.header("x-coffer-token")) ?? "";
  const buf = Buffer.from(given);
  const expected = Buffer.from(token);
  if (buf.length === expected.length && timingSafeEqual(buf, expected)) return OWNER;
  const agent = given ? credentials.verify(given) : null;
  if (agent) return agent;
  throw new ApiError("UNAUTHORIZED", given ? "the token is wrong" : "send the daemon token (Authorization: Bearer <token> or X-Coffer-Token)");
}
