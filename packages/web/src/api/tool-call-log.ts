import type { McpInvocationListOut, McpInvocationOut } from "@coffer/protocol";
import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import { refetchIfInFlight } from "./in-flight.js";

/**
 * The Tool calls log's cache, kept live from the list stream (use-list-events.ts): a call the
 * gateway logs is put on top of the loaded log, a deleted conversation's calls lose their link.
 * Outside src/vault: the chat's stream handler imports it, and Vault code stays in its lazy chunk.
 */
export const TOOL_CALL_LOG_KEY = ["vault", "mcp", "invocations"] as const;

type LogData = InfiniteData<McpInvocationListOut, number | null>;

export function prependToolCall(client: QueryClient, invocation: McpInvocationOut): void {
  client.setQueryData<LogData>(TOOL_CALL_LOG_KEY, (data) => {
    const [first, ...rest] = data?.pages ?? [];
    if (!data || !first) return data; // not loaded: the page fetches it fresh when opened
    if (data.pages.some((p) => p.invocations.some((i) => i.id === invocation.id))) return data;
    return { ...data, pages: [{ ...first, invocations: [invocation, ...first.invocations] }, ...rest] };
  });
  refetchIfInFlight(client, TOOL_CALL_LOG_KEY);
}

export function forgetToolCallConversation(client: QueryClient, conversationId: string): void {
  client.setQueryData<LogData>(TOOL_CALL_LOG_KEY, (data) =>
    data && {
      ...data,
      pages: data.pages.map((p) => ({
        ...p,
        invocations: p.invocations.map((i) => (i.conversation?.id === conversationId ? { ...i, conversation: null } : i)),
      })),
    },
  );
  refetchIfInFlight(client, TOOL_CALL_LOG_KEY);
}
