import { ROUTES, type McpInvocationOut } from "@coffer/protocol";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, vi } from "vitest";
import { acceptance } from "../../../test/acceptance.js";
import { ApiProvider } from "../../api/api-context.js";
import type { CofferApi } from "../../api/client.js";
import { forgetToolCallConversation, prependToolCall } from "../../api/tool-call-log.js";
import { InvocationsPage } from "./invocations-page.js";

const call = (id: number, extra: Partial<McpInvocationOut>): McpInvocationOut => ({
  id,
  at: "2026-12-04T10:00:00.000Z",
  caller: "claude-code",
  tool: "coffer__recall",
  server: "coffer",
  duration_ms: 12,
  outcome: "ok",
  agent_key: "claude_code",
  conversation: { id: "c1", title: "Release checklist" },
  ...extra,
});

/**
 * The daemon answers as a recorder of typed calls here (happy-dom has no daemon); the real
 * route, the event and the page together run in e2e/tool-call-log.e2e.ts and
 * packages/daemon/test/integration/tool-call-log-live.test.ts.
 */
function setup(first: McpInvocationOut[]) {
  const client = new QueryClient();
  const api = vi.fn(async (route: unknown) => {
    if (route === ROUTES.listAgents) return { agents: [{ agent_key: "claude_code", display_name: "Claude Code", available: true }] };
    if (route === ROUTES.listMcpInvocations) return { invocations: first, next_cursor: null };
    throw new Error("unexpected route");
  });
  render(
    <QueryClientProvider client={client}>
      <ApiProvider api={{ call: api, agents: () => api(ROUTES.listAgents) } as unknown as CofferApi}>
        <MemoryRouter>
          <InvocationsPage />
        </MemoryRouter>
      </ApiProvider>
    </QueryClientProvider>,
  );
  return client;
}

const rows = () => within(screen.getByRole("table", { name: "Tool calls" })).getAllByRole("row").slice(1);

describe("the Tool calls log page", () => {
  acceptance("022-screens-true", "the tool-call log names tools and agents as the chat does, links each call to its conversation and updates live", async () => {
    const client = setup([call(1, { agent_key: null, conversation: null, caller: "my-editor" })]);
    await screen.findByText("my-editor");
    // A call logged while the page is open (the list stream's tool_call_logged) goes on top.
    act(() => prependToolCall(client, call(2, {})));
    await screen.findByText("Claude Code");
    expect(rows()).toHaveLength(2);
    const top = rows()[0]!;
    expect(top).toHaveTextContent("coffer · recall");
    expect(top).not.toHaveTextContent("coffer__recall");
    expect(within(top).getByRole("link", { name: "Release checklist" })).toHaveAttribute("href", "/chat/c1");
    // The same call again (a refetch raced the event) is not listed twice.
    act(() => prependToolCall(client, call(2, {})));
    await vi.waitFor(() => expect(client.getQueryData<{ pages: { invocations: unknown[] }[] }>(["vault", "mcp", "invocations"])?.pages[0]?.invocations).toHaveLength(2));
    expect(rows()).toHaveLength(2);
    // Its conversation deleted: the call stays, its link goes.
    act(() => forgetToolCallConversation(client, "c1"));
    await vi.waitFor(() => expect(within(rows()[0]!).queryByRole("link")).toBeNull());
    expect(rows()[0]).toHaveTextContent("Deleted");
  });
});
