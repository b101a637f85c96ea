import type { HttpBindings } from "@hono/node-server";
import type { AgentRegistry } from "../application/agent-registry.js";
import type { ConversationService } from "../application/conversations.js";
import type { Logger } from "../application/ports.js";
import type { ConversationListEvents } from "../application/turns/list-events.js";
import type { TurnEngine } from "../application/turns/turn-engine.js";

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
}

export type Env = { Bindings: HttpBindings };
