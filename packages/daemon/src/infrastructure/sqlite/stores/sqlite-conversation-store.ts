import type { SearchMatch } from "@coffer/protocol";
import type { ConversationPageQuery, ConversationStore, NewConversation } from "../../../application/ports.js";
import type { AgentConfig } from "../../../domain/agent-config.js";
import type { ChannelBinding, Conversation } from "../../../domain/conversation.js";
import type { Db } from "../database.js";
import { toConversation, toFtsWords, type ConversationRow } from "../rows/chat-rows.js";
import { ConversationSearch, type SearchPlan } from "../search/conversation-search.js";
import type { SearchIndex } from "../search/search-index.js";
import { SnippetFinder } from "../search/search-snippet.js";

const CONV_COLS = "rowid, id, agent_key, title, title_set_by_owner, model_id, agent_config, channel_name, peer_chat_id, channel_id, peer_thread_id, queue_paused, created_at, updated_at, archived_at";

function listSql(archived: boolean, cursor: boolean): string {
  const where = [archived ? "archived_at IS NOT NULL" : "archived_at IS NULL"];
  if (cursor) where.push("(updated_at, id) < (@updatedAt, @id)");
  return `SELECT ${CONV_COLS} FROM conversations WHERE ${where.join(" AND ")} ORDER BY updated_at DESC, id DESC LIMIT @limit`;
}

/**
 * ConversationStore on better-sqlite3: the conversation rows, their list and search. Shares its
 * database handle and search index with the message store (sqlite-chat-stores.ts).
 */
export class SqliteConversationStore implements ConversationStore {
  private readonly s;
  private readonly finder: ConversationSearch;
  private readonly snippets: SnippetFinder;
  /** Which search plan lists use; tests pin one to prove every plan answers alike. */
  searchPlan: SearchPlan = "auto";
  /** id → rowid of the last search's page: its snippets are made next, without a lookup each. */
  private pageRowids = new Map<string, number>();
  private readonly listStatements = new Map<string, ReturnType<Db["prepare"]>>();

  constructor(
    private readonly db: Db,
    private readonly search: SearchIndex,
  ) {
    this.finder = new ConversationSearch(db, search, CONV_COLS);
    this.snippets = new SnippetFinder(db);
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      insertConv: p(`INSERT INTO conversations (id, agent_key, title, title_set_by_owner, agent_config, channel_name, peer_chat_id, channel_id, peer_thread_id, created_at, updated_at)
                     VALUES (@id, @agentKey, @title, @titleSetByOwner, @agentConfig, @channel, @chatId, @channelId, @threadId, @now, @now)`),
      getConv: p(`SELECT ${CONV_COLS} FROM conversations WHERE id = ?`),
      // A range on the primary key: O(log n) however many conversations there are.
      byIdPrefix: p(`SELECT ${CONV_COLS} FROM conversations WHERE id >= @prefix AND id < @prefix || char(1114111) ORDER BY id LIMIT @limit`),
      rowidOf: p("SELECT rowid FROM conversations WHERE id = ?"),
      rename: p("UPDATE conversations SET title = ?, title_set_by_owner = MAX(title_set_by_owner, ?), updated_at = MAX(updated_at, ?) WHERE id = ? RETURNING rowid"),
      setArchived: p("UPDATE conversations SET archived_at = ? WHERE id = ?"),
      setConfig: p("UPDATE conversations SET agent_config = ? WHERE id = ?"),
      setPaused: p("UPDATE conversations SET queue_paused = ? WHERE id = ?"),
      setBinding: p("UPDATE conversations SET channel_name = ?, peer_chat_id = ?, channel_id = ?, peer_thread_id = ? WHERE id = ?"),
      unbindChannel: p("UPDATE conversations SET channel_name = NULL, peer_chat_id = NULL, channel_id = NULL, peer_thread_id = NULL WHERE channel_id = ? RETURNING id"),
      touch: p("UPDATE conversations SET updated_at = MAX(updated_at, ?) WHERE id = ?"),
      deleteConv: p("DELETE FROM conversations WHERE id = ? RETURNING rowid"),
    };
  }

  insertConversation(c: NewConversation): void {
    this.transaction(() => {
      const info = this.s.insertConv.run({
        id: c.id,
        agentKey: c.agentKey,
        title: c.title,
        titleSetByOwner: c.titleSetByOwner ? 1 : 0,
        agentConfig: JSON.stringify(c.agentConfig),
        channel: c.channel?.channel ?? null,
        chatId: c.channel?.chatId ?? null,
        channelId: c.channel?.channelId ?? null,
        threadId: c.channel?.threadId ?? null,
        now: c.now,
      });
      this.search.addTitle(info.lastInsertRowid, c.title);
    });
  }

  getConversation(id: string): Conversation | null {
    const row = this.s.getConv.get(id) as ConversationRow | undefined;
    return row ? toConversation(row) : null;
  }

  listConversations(query: ConversationPageQuery): Conversation[] {
    if (query.q !== undefined) {
      const words = toFtsWords(query.q);
      if (!words) return [];
      const rows = this.finder.find(words, query, this.searchPlan);
      this.pageRowids = new Map(rows.map((r) => [r.id, r.rowid]));
      return rows.map(toConversation);
    }
    const key = `${query.archived}|${query.after !== undefined}`;
    let stmt = this.listStatements.get(key);
    if (!stmt) {
      stmt = this.db.prepare(listSql(query.archived, query.after !== undefined));
      this.listStatements.set(key, stmt);
    }
    const params: Record<string, unknown> = { limit: query.limit };
    if (query.after) Object.assign(params, query.after);
    return (stmt.all(params) as ConversationRow[]).map(toConversation);
  }

  conversationsWithIdPrefix(prefix: string, limit: number): Conversation[] {
    return (this.s.byIdPrefix.all({ prefix, limit }) as ConversationRow[]).map(toConversation);
  }

  searchMatch(conversation: Conversation, q: string): SearchMatch {
    const rowid = this.pageRowids.get(conversation.id) ?? (this.s.rowidOf.get(conversation.id) as { rowid: number } | undefined)?.rowid ?? -1;
    return this.snippets.match({ rowid, id: conversation.id, title: conversation.title }, toFtsWords(q) ?? [], this.search.hints, this.search.newestChunks, this.search.hitBodies);
  }

  renameConversation(id: string, title: string, byOwner: boolean, now: number): void {
    this.transaction(() => {
      const row = this.s.rename.get(title, byOwner ? 1 : 0, now, id) as { rowid: number } | undefined;
      if (row) this.search.setTitle(row.rowid, title);
    });
  }

  setArchived(id: string, archivedAt: number | null): void {
    this.s.setArchived.run(archivedAt, id);
  }

  setAgentConfig(id: string, config: AgentConfig): void {
    this.s.setConfig.run(JSON.stringify(config), id);
  }

  setQueuePaused(id: string, paused: boolean): void {
    this.s.setPaused.run(paused ? 1 : 0, id);
  }

  setChannelBinding(id: string, binding: ChannelBinding | null): void {
    this.s.setBinding.run(binding?.channel ?? null, binding?.chatId ?? null, binding?.channelId ?? null, binding?.threadId ?? null, id);
  }

  unbindChannel(channelId: string): string[] {
    return (this.s.unbindChannel.all(channelId) as { id: string }[]).map((r) => r.id);
  }

  touchConversation(id: string, now: number): void {
    this.s.touch.run(now, id);
  }

  deleteConversation(id: string): void {
    this.transaction(() => {
      const row = this.s.deleteConv.get(id) as { rowid: number } | undefined;
      if (row) this.search.remove(row.rowid);
    });
  }

  private transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }
}
