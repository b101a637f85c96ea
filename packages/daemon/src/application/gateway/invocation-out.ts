import type { McpInvocationOut } from "@coffer/protocol";
import { iso } from "../presenters.js";
import type { Invocation } from "./gateway-ports.js";

/** A logged tool call on the wire: the list route and the live `tool_call_logged` event send the same shape. */
export function invocationOut({ at, conversation_id, conversation_title, ...i }: Invocation): McpInvocationOut {
  return { ...i, at: iso(at), conversation: conversation_id && conversation_title !== null ? { id: conversation_id, title: conversation_title } : null };
}
