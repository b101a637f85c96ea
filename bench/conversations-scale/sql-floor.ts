import Database from "better-sqlite3";
import { CONVERSATION_PAGE, SEARCH_PAGE } from "@coffer/protocol";
import { openChatStores } from "../../packages/daemon/src/infrastructure/sqlite/stores/sqlite-chat-stores.js";
import { SearchIndex } from "../../packages/daemon/src/infrastructure/sqlite/search/search-index.js";
import type { BenchQuery } from "./queries.js";

// The store's own statements, copied so the floor runs them without any mapping around them.
const CONV_COLS = "rowid, id, agent_key, title, title_set_by_owner, model_id, agent_config, channel_name, peer_chat_id, queue_paused, created_at, updated_at, archived_at";
const MSG_COLS = "id, conversation_id, seq, role, content, status, model_id, prompt_tokens, completion_tokens, created_at";
const LIST = `SELECT ${CONV_COLS} FROM conversations WHERE archived_at IS NULL ORDER BY updated_at DESC, id DESC LIMIT @limit`;
const SEARCH = (match: string) =>
  `SELECT ${CONV_COLS} FROM conversations WHERE archived_at IS NULL AND ${match} ORDER BY updated_at DESC, id DESC LIMIT @limit`;
const THREAD = `SELECT ${MSG_COLS} FROM messages WHERE conversation_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`;

/** One query's three in-process runs: raw SQL, the store, and the plan SQLite reports for the raw SQL. */
export interface FloorRunners {
  /**
   * Raw prepared statements: the cost SQLite itself puts on each query. For a search this
   * is the single statement every search ran before the planner (SearchIndex.match), the
   * "before" of issue 16; it fills no snippet.
   */
  readonly raw: (i: number) => unknown;
  /** The daemon's chat stores in-process: SQL plus row mapping (a search: the planner and the page's snippets), no HTTP. */
  readonly store: (i: number) => unknown;
  readonly plan: string[];
}

// What the daemon answers a request without `limit` (what the page asks for).
const PAGE = CONVERSATION_PAGE;
const THREAD_PAGE = 200;

/**
 * The in-process floor on its own read-only connection, as runners: main.ts times them in turn
 * with the daemon and the bare server, so each query's figures are taken in the same minutes
 * (on a shared machine the load moves between phases measured one after another).
 */
export function sqlFloor(dbFile: string): { runners(q: BenchQuery): FloorRunners; close(): void } {
  const db = new Database(dbFile, { readonly: true });
  db.pragma("busy_timeout = 5000");
  const list = db.prepare(LIST);
  const searchIndex = new SearchIndex(db);
  const thread = db.prepare(THREAD);
  const { tx, conversations: store, messages } = openChatStores(db);
  const plan = (sql: string, ...params: unknown[]) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);

  const runners = (q: BenchQuery): FloorRunners => {
    if (q.kind === "list") {
      return {
        raw: () => list.all({ limit: PAGE + 1 }),
        store: () => store.listConversations({ archived: false, limit: PAGE + 1 }),
        plan: plan(LIST, { limit: PAGE + 1 }),
      };
    }
    if (q.kind === "search") {
      const match = searchIndex.match(q.word)!;
      const search = db.prepare(SEARCH(match.sql));
      const page = q.limit ?? SEARCH_PAGE;
      return {
        raw: () => search.all({ ...match.params, limit: page + 1 }),
        // In one read transaction, as ConversationService.list reads a search.
        store: () =>
          tx.transaction(() => {
            const rows = store.listConversations({ archived: false, q: q.word, limit: page + 1 });
            return rows.slice(0, page).map((c) => store.searchMatch(c, q.word));
          }),
        plan: plan(SEARCH(match.sql), { ...match.params, limit: page + 1 }),
      };
    }
    const ids = q.conversationIds;
    return {
      raw: (i) => thread.all(ids[i % ids.length], Number.MAX_SAFE_INTEGER, THREAD_PAGE + 1),
      store: (i) => {
        const id = ids[i % ids.length]!;
        store.getConversation(id);
        return messages.listMessages(id, undefined, THREAD_PAGE);
      },
      plan: plan(THREAD, ids[0], Number.MAX_SAFE_INTEGER, THREAD_PAGE + 1),
    };
  };
  return { runners, close: () => db.close() };
}
