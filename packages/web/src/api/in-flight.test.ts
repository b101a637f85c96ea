import type { ConversationListOut, ConversationOut, McpInvocationListOut, McpInvocationOut } from "@coffer/protocol";
import { InfiniteQueryObserver, QueryClient, type QueryKey } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { keys, patchLists } from "./queries.js";
import { prependToolCall, TOOL_CALL_LOG_KEY } from "./tool-call-log.js";

// A fetch in flight may have read the daemon before a live event it then lands over: the event
// must survive. The page once lost a conversation created while its first list load ran (the
// official CI's schedules e2e); the Tool calls log had the same race.
const conversation = (id: string) => ({ id, title: id, archived_at: null }) as unknown as ConversationOut;
const call = (id: string) => ({ id }) as unknown as McpInvocationOut;
const listPage = (ids: string[]) => ({ conversations: ids.map(conversation), next_cursor: null }) as unknown as ConversationListOut;
const logPage = (ids: string[]) => ({ invocations: ids.map(call), next_cursor: null }) as unknown as McpInvocationListOut;

/** A fake daemon: each fetch reads its rows now and answers when released. */
function daemon<P>(initial: string[], page: (ids: string[]) => P) {
  const rows = [...initial];
  const pending: Array<() => void> = [];
  let fetches = 0;
  return {
    rows,
    fetches: () => fetches,
    queryFn: () => {
      fetches++;
      const read = page([...rows]);
      return new Promise<P>((resolve) => pending.push(() => resolve(read)));
    },
    /** Answer every fetch asked for so far, and those it leads to, until none is left. */
    async settle(client: QueryClient) {
      while (pending.length || client.isFetching()) {
        pending.splice(0).forEach((answer) => answer());
        await new Promise((r) => setTimeout(r, 0));
      }
    },
  };
}

/** The cache as a mounted screen holds it: observed (active), so invalidation refetches it. */
function watch<P>(client: QueryClient, queryKey: QueryKey, queryFn: () => Promise<P>): void {
  new InfiniteQueryObserver(client, { queryKey, queryFn, initialPageParam: null, getNextPageParam: () => null }).subscribe(() => undefined);
}

const listKey = keys.list(false, "");
const listIds = (client: QueryClient) =>
  (client.getQueryData<{ pages: ConversationListOut[] }>(listKey)?.pages ?? []).flatMap((p) => p.conversations.map((c) => c.id));
const logIds = (client: QueryClient) =>
  (client.getQueryData<{ pages: McpInvocationListOut[] }>(TOOL_CALL_LOG_KEY)?.pages ?? []).flatMap((p) => p.invocations.map((i) => i.id));

describe("a live event while the history list's fetch is in flight", () => {
  it("keeps a conversation created during the first load", async () => {
    const client = new QueryClient();
    const d = daemon(["a"], listPage);
    watch(client, listKey, d.queryFn);
    d.rows.unshift("b");
    patchLists(client, { upsert: conversation("b") });
    await d.settle(client);
    expect(listIds(client)).toEqual(["b", "a"]);
    expect(d.fetches()).toBe(2);
  });

  it("keeps a conversation created during a refetch over held data, and shows it meanwhile", async () => {
    const client = new QueryClient();
    const d = daemon(["a"], listPage);
    watch(client, listKey, d.queryFn);
    await d.settle(client);
    void client.invalidateQueries({ queryKey: keys.lists }); // what the stream's (re)open does
    d.rows.unshift("b");
    patchLists(client, { upsert: conversation("b") });
    expect(listIds(client)).toEqual(["b", "a"]);
    await d.settle(client);
    expect(listIds(client)).toEqual(["b", "a"]);
  });

  it("fetches nothing more when no fetch is in flight", async () => {
    const client = new QueryClient();
    const d = daemon(["a"], listPage);
    watch(client, listKey, d.queryFn);
    await d.settle(client);
    patchLists(client, { upsert: conversation("b") });
    await d.settle(client);
    expect(listIds(client)).toEqual(["b", "a"]);
    expect(d.fetches()).toBe(1);
  });
});

describe("a tool call logged while the Tool calls log's fetch is in flight", () => {
  it("keeps a call logged during a refetch over the held log", async () => {
    const client = new QueryClient();
    const d = daemon(["c1"], logPage);
    watch(client, TOOL_CALL_LOG_KEY, d.queryFn);
    await d.settle(client);
    void client.invalidateQueries({ queryKey: TOOL_CALL_LOG_KEY });
    d.rows.unshift("c2");
    prependToolCall(client, call("c2"));
    await d.settle(client);
    expect(logIds(client)).toEqual(["c2", "c1"]);
  });

  it("keeps a call logged during the first load", async () => {
    const client = new QueryClient();
    const d = daemon(["c1"], logPage);
    watch(client, TOOL_CALL_LOG_KEY, d.queryFn);
    d.rows.unshift("c2");
    prependToolCall(client, call("c2"));
    await d.settle(client);
    expect(logIds(client)).toEqual(["c2", "c1"]);
  });
});
