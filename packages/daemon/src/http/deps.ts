import type { HttpBindings } from "@hono/node-server";
import type { AgentRegistry } from "../application/agent-registry.js";
import type { ConversationService } from "../application/conversations.js";
import type { Logger } from "../application/ports.js";
import type { ConversationListEvents } from "../application/turns/list-events.js";
import type { TurnEngine } from "../application/turns/turn-engine.js";
import type { McpServerService } from "../application/vault/mcp-servers.js";

/** The MCP gateway, as the HTTP layer sees it: a use case and a plain request handler. */
export interface McpHttp {
  readonly servers: McpServerService;
  /** Serves `/mcp` (Streamable HTTP); built from the MCP SDK by the composition root. */
  readonly endpoint: (request: Request) => Promise<Response>;
}
import type { VaultServices } from "../application/vault/vault-tools.js";

export interface HttpDeps {
  readonly token: string;
  readonly version: string;
  readonly startedAt: number;
  readonly registry: AgentRegistry;
  readonly conversations: ConversationService;
  readonly engine: TurnEngine;
  readonly listEvents: ConversationListEvents;
  readonly logger: Logger;
  readonly heartbeatMs: number;
  /** Built web app to serve at `/`, or null when it has not been built. */
  readonly webRoot: string | null;
  readonly mcp: McpHttp;
  /** Skills, memory and knowledge (the gateway's coffer__ tools use the same services). */
  readonly vault: VaultServices;
}

export type Env = { Bindings: HttpBindings };
