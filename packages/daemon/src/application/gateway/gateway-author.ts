import type { Author } from "../audit-log.js";
import type { GatewayPrincipal } from "./gateway-ports.js";

/**
 * The author of a gateway call. An agent is who its credential says; the owner's own MCP
 * client (daemon token) is the owner, and the client's self-declared name is kept only as a
 * label (docs/decisions.md, "Secrets and audit"). It lives with the gateway, which owns who
 * its caller is; the audit log only defines what an author is, so the tie points one way.
 */
export function gatewayAuthor(principal: GatewayPrincipal | undefined, caller: string): Author {
  if (principal?.kind === "agent") {
    return { actor: "agent", details: { agent: principal.agent, conversation_id: principal.conversationId }, name: principal.agent };
  }
  return { actor: "user", details: { via: "mcp", client: caller }, name: caller };
}
