import type { McpInvocationOut } from "@coffer/protocol";
import { iso } from "../presenters.js";
import type { Invocation } from "./gateway-ports.js";

/** A logged tool call on the wire: the list route and the live `tool_call_logged` event send the same shape. */
export function invocationOut(i: Invocation): McpInvocationOut {
  return {
    id: i.id,
    at: iso(i.at),
    caller: i.caller,
    tool: i.tool,
    server: i.server,
    duration_ms: i.durationMs,
    outcome: i.outcome,
    agent_key: i.agentKey,
    conversation: i.conversationId && i.conversationTitle !== null ? { id: i.conversationId, title: i.conversationTitle } : null,
  };
}
