import type { ConversationListOut, ConversationOut, MessageListOut, MessageOut } from "@coffer/protocol";
import { useInfiniteQuery, useQuery, type InfiniteData, type QueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { useApi } from "./api-context.js";
import { refetchIfInFlight } from "./in-flight.js";
import type { CofferApi } from "./client.js";

export const keys = {
  agents: ["agents"] as const,
  agentModels: (agent: string) => ["agent-models", agent] as const,
  lists: ["conversations"] as const,
  list: (archived: boolean, q: string) => ["conversations", { archived, q }] as const,
  conversation: (id: string) => ["conversation", id] as const,
  messages: (id: string) => ["messages", id] as const,
  agentConfig: (id: string) => ["agent-config", id] as const,
  /** Whether voice is on (the composer's microphone); Settings → Connections invalidates it. */
  transcriptionStatus: ["transcriptions", "status"] as const,
};

export const MESSAGE_PAGE = 100;

export function useAgents() {
  const api = useApi();
  return useQuery({ queryKey: keys.agents, queryFn: () => api.agents(), staleTime: 30_000 });
}

/** The model field's suggestions for one agent; the daemon caches the agent's own answer. */
export function useAgentModels(agent: string | null) {
  const api = useApi();
  return useQuery({ queryKey: keys.agentModels(agent ?? ""), queryFn: () => api.agentModels(agent!), enabled: agent !== null, staleTime: 60_000 });
}

export function useConversationList(archived: boolean, q: string) {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: keys.list(archived, q),
    queryFn: ({ pageParam }) => api.conversations({ archived, q: q || undefined, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });
}

export function useConversation(id: string) {
  const api = useApi();
  return useQuery({ queryKey: keys.conversation(id), queryFn: () => api.conversation(id) });
}

export function useAgentConfig(id: string) {
  const api = useApi();
  return useQuery({ queryKey: keys.agentConfig(id), queryFn: () => api.agentConfig(id) });
}

/** Pages from the newest back; `messages` comes out ascending across all loaded pages. */
export function useMessages(id: string) {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: keys.messages(id),
    queryFn: ({ pageParam }) => api.messages(id, { before: pageParam ?? undefined, limit: MESSAGE_PAGE }),
    initialPageParam: null as number | null,
    getNextPageParam: (page: MessageListOut) => (page.has_more && page.messages[0] ? page.messages[0].seq : null),
    // Live events keep this fresh (refreshLatest); a blanket refetch would re-download every page.
    staleTime: Infinity,
  });
  const messages = useMemo(() => {
    const pages = query.data?.pages ?? [];
    const out: MessageOut[] = [];
    for (let i = pages.length - 1; i >= 0; i--) out.push(...pages[i]!.messages);
    return out;
  }, [query.data]);
  return { ...query, messages };
}

type MessageData = InfiniteData<MessageListOut, number | null>;

/**
 * Re-read only the newest page and splice it over what we hold: a finished turn or a
 * reattach must not re-download a 2,000-message history.
 */
export async function refreshLatest(client: QueryClient, api: CofferApi, id: string): Promise<void> {
  const fresh = await api.messages(id, { limit: MESSAGE_PAGE });
  client.setQueryData<MessageData>(keys.messages(id), (data) => {
    const from = fresh.messages[0]?.seq ?? 0;
    const pages = data?.pages ?? [];
    const newestHeld = pages[0]?.messages.at(-1)?.seq ?? -1;
    // More than a page arrived since: what we held is no longer contiguous, start over.
    if (!pages.length || (fresh.has_more && newestHeld < from - 1)) return { pages: [fresh], pageParams: [null] };
    const older: MessageOut[] = [];
    for (let i = pages.length - 1; i >= 0; i--) older.push(...pages[i]!.messages.filter((m) => m.seq < from));
    const hasMore = older.length ? pages[pages.length - 1]!.has_more : fresh.has_more;
    // One page again: paging back continues from the oldest message we hold.
    return { pages: [{ messages: [...older, ...fresh.messages], has_more: hasMore }], pageParams: [null] };
  });
}

type ListData = InfiniteData<ConversationListOut, string | null>;

/**
 * Apply one conversation-list event to every cached list page (a list event patches one row);
 * a list whose fetch is in flight is fetched again (refetchIfInFlight).
 */
export function patchLists(client: QueryClient, change: { upsert?: ConversationOut; removeId?: string }): void {
  for (const [key, data] of client.getQueriesData<ListData>({ queryKey: keys.lists })) {
    refetchIfInFlight(client, key);
    if (!data) continue;
    const filter = (key[1] ?? {}) as { archived?: boolean; q?: string };
    const id = change.upsert?.id ?? change.removeId!;
    const pages = data.pages.map((p) => ({ ...p, conversations: p.conversations.filter((c) => c.id !== id) }));
    const had = pages.some((p, i) => p.conversations.length !== data.pages[i]!.conversations.length);
    const row = change.upsert;
    if (row && (row.archived_at !== null) === filter.archived && (had || !filter.q)) {
      const first = pages[0];
      if (first) first.conversations = [row, ...first.conversations];
    }
    client.setQueryData<ListData>(key, { ...data, pages });
  }
  if (change.upsert) client.setQueryData(keys.conversation(change.upsert.id), change.upsert);
}
