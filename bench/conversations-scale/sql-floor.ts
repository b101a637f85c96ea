import Database from "better-sqlite3";
import { CONVERSATION_PAGE, SEARCH_PAGE } from "@coffer/protocol";
import { SqliteChatStore } from "../../packages/daemon/src/infrastructure/sqlite/stores/sqlite-chat-store.js";
import { SearchIndex } from "../../packages/daemon/src/infrastructure/sqlite/search/search-index.js";
import { summarize, timeRuns, type Summary } from "../support/stats.js";
import type { BenchQuery } from "./queries.js";

// The store's own statements, copied so the floor runs them without any mapping around them.
const CONV_COLS = "rowid, id, agent_key, title, title_set_by_owner, model_id, agent_config, channel_name, peer_chat_id, queue_paused, created_at, updated_at, archived_at";
const MSG_COLS = "id, conversation_id, seq, role, content, status, model_id, prompt_tokens, completion_tokens, created_at";
const LIST = `SELECT ${CONV_COLS} FROM conversations WHERE archived_at IS NULL ORDER BY updated_at DESC, id DESC LIMIT @limit`;
const SEARCH = (match: string) =>
  `SELECT ${CONV_COLS} FROM conversations WHERE archived_at IS NULL AND ${match} ORDER BY updated_at DESC, id DESC LIMIT @limit`;
const THREAD = `SELECT ${MSG_COLS} FROM messages WHERE conversation_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`;

export interface SqlFloor {
  /**
   * Raw prepared statements: the cost SQLite itself puts on each query. For a search this
   * is the single statement every search ran before the planner (SearchIndex.match), the
   * "before" of issue 16; it fills no snippet.
   */
  readonly raw: Record<string, Summary>;
  /** The daemon's SqliteChatStore in-process: SQL plus row mapping (a search: the planner and the page's snippets), no HTTP. */
  readonly store: Record<string, Summary>;
  readonly plans: Record<string, string[]>;
}

// What the daemon answers a request without `limit` (what the page asks for).
const PAGE = CONVERSATION_PAGE;
const THREAD_PAGE = 200;

export async function measureSqlFloor(dbFile: string, queries: readonly BenchQuery[], runs: number): Promise<SqlFloor> {
  const db = new Database(dbFile, { readonly: true });
  db.pragma("busy_timeout = 5000");
  const list = db.prepare(LIST);
  const searchIndex = new SearchIndex(db);
  const thread = db.prepare(THREAD);
  const store = new SqliteChatStore(db);
  const raw: Record<string, Summary> = {};
  const viaStore: Record<string, Summary> = {};
  const plans: Record<string, string[]> = {};
  const plan = (sql: string, ...params: unknown[]) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);

  for (const q of queries) {
    if (q.kind === "list") {
      raw[q.name] = summarize(await timeRuns(runs, 20, () => list.all({ limit: PAGE + 1 })));
      viaStore[q.name] = summarize(await timeRuns(runs, 20, () => store.listConversations({ archived: false, limit: PAGE + 1 })));
      plans[q.name] = plan(LIST, { limit: PAGE + 1 });
    } else if (q.kind === "search") {
      const match = searchIndex.match(q.word)!;
      const search = db.prepare(SEARCH(match.sql));
      const page = q.limit ?? SEARCH_PAGE;
      raw[q.name] = summarize(await timeRuns(runs, 20, () => search.all({ ...match.params, limit: page + 1 })));
      // In one read transaction, as ConversationService.list reads a search.
      viaStore[q.name] = summarize(
        await timeRuns(runs, 20, () =>
          store.transaction(() => {
            const rows = store.listConversations({ archived: false, q: q.word, limit: page + 1 });
            return rows.slice(0, page).map((c) => store.searchMatch(c, q.word));
          }),
        ),
      );
      plans[q.name] = plan(SEARCH(match.sql), { ...match.params, limit: page + 1 });
    } else {
      const ids = q.conversationIds;
      raw[q.name] = summarize(
        await timeRuns(runs, 20, (i) => thread.all(ids[i % ids.length], Number.MAX_SAFE_INTEGER, THREAD_PAGE + 1)),
      );
      viaStore[q.name] = summarize(
        await timeRuns(runs, 20, (i) => {
          const id = ids[i % ids.length]!;
          store.getConversation(id);
          return store.listMessages(id, undefined, THREAD_PAGE);
        }),
      );
      plans[q.name] = plan(THREAD, ids[0], Number.MAX_SAFE_INTEGER, THREAD_PAGE + 1);
    }
  }
  db.close();
  return { raw, store: viaStore, plans };
}
