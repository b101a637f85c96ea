import type { AuditAction, AuditActor, ContentBlock, MessageOut, SearchMatch } from "@coffer/protocol";
import type {
  ChatStore,
  ConversationPageQuery,
  MessageFinal,
  NewConversation,
  NewMessage,
  PendingRow,
  TurnFailure,
} from "../../../application/ports.js";
import type { AgentConfig } from "../../../domain/agent-config.js";
import type { ChannelBinding, Conversation } from "../../../domain/conversation.js";
import type { Db } from "../database.js";
import { ConversationSearch, type SearchPlan } from "../search/conversation-search.js";
import { SearchIndex } from "../search/search-index.js";
import { SnippetFinder } from "../search/search-snippet.js";
import {
  parseContent,
  searchableText,
  toFtsWords,
  toConversation,
  toMessageOut,
  STEERED_USER_MARK,
  type ConversationRow,
  type MessageRow,
} from "../rows/chat-rows.js";

const CONV_COLS = "rowid, id, agent_key, title, title_set_by_owner, model_id, agent_config, channel_name, peer_chat_id, channel_id, queue_paused, created_at, updated_at, archived_at";
const MSG_COLS =
  "id, conversation_id, seq, role, content, status, model_id, prompt_tokens, completion_tokens, stop_reason, error_code, error_message, created_at";

function listSql(archived: boolean, cursor: boolean): string {
  const where = [archived ? "archived_at IS NOT NULL" : "archived_at IS NULL"];
  if (cursor) where.push("(updated_at, id) < (@updatedAt, @id)");
  return `SELECT ${CONV_COLS} FROM conversations WHERE ${where.join(" AND ")} ORDER BY updated_at DESC, id DESC LIMIT @limit`;
}

/** ChatStore on better-sqlite3: small prepared statements, synchronous transactions. */
export class SqliteChatStore implements ChatStore {
  private readonly s;
  private readonly search: SearchIndex;
  private readonly finder: ConversationSearch;
  private readonly snippets: SnippetFinder;
  /** Which search plan lists use; tests pin one to prove every plan answers alike. */
  searchPlan: SearchPlan = "auto";
  /** id → rowid of the last search's page: its snippets are made next, without a lookup each. */
  private pageRowids = new Map<string, number>();
  private readonly listStatements = new Map<string, ReturnType<Db["prepare"]>>();

  constructor(
    private readonly db: Db,
    /** Applied to every audit row's details before it is written (the daemon scrubs secrets here). */
    private readonly auditFilter: (details: Record<string, unknown>) => Record<string, unknown> = (d) => d,
  ) {
    this.search = new SearchIndex(db);
    this.finder = new ConversationSearch(db, this.search, CONV_COLS);
    this.snippets = new SnippetFinder(db);
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      insertConv: p(`INSERT INTO conversations (id, agent_key, title, title_set_by_owner, agent_config, channel_name, peer_chat_id, channel_id, created_at, updated_at)
                     VALUES (@id, @agentKey, @title, @titleSetByOwner, @agentConfig, @channel, @chatId, @channelId, @now, @now)`),
      getConv: p(`SELECT ${CONV_COLS} FROM conversations WHERE id = ?`),
      // A range on the primary key: O(log n) however many conversations there are.
      byIdPrefix: p(`SELECT ${CONV_COLS} FROM conversations WHERE id >= @prefix AND id < @prefix || char(1114111) ORDER BY id LIMIT @limit`),
      rowidOf: p("SELECT rowid FROM conversations WHERE id = ?"),
      rename: p("UPDATE conversations SET title = ?, title_set_by_owner = MAX(title_set_by_owner, ?), updated_at = MAX(updated_at, ?) WHERE id = ? RETURNING rowid"),
      setArchived: p("UPDATE conversations SET archived_at = ? WHERE id = ?"),
      setConfig: p("UPDATE conversations SET agent_config = ? WHERE id = ?"),
      setPaused: p("UPDATE conversations SET queue_paused = ? WHERE id = ?"),
      setBinding: p("UPDATE conversations SET channel_name = ?, peer_chat_id = ?, channel_id = ? WHERE id = ?"),
      unbindChannel: p("UPDATE conversations SET channel_name = NULL, peer_chat_id = NULL, channel_id = NULL WHERE channel_id = ? RETURNING id"),
      touch: p("UPDATE conversations SET updated_at = MAX(updated_at, ?) WHERE id = ?"),
      deleteConv: p("DELETE FROM conversations WHERE id = ? RETURNING rowid"),
      withPending: p("SELECT DISTINCT conversation_id AS id FROM pending_messages"),
      nextSeq: p("SELECT COALESCE(MAX(seq) + 1, 0) AS seq FROM messages WHERE conversation_id = ?"),
      // A user row has no stop reason of its own: its stop_reason column marks a steered message (chat-rows.ts).
      insertMsg: p(`INSERT INTO messages (id, conversation_id, seq, role, content, status, model_id, client_id, created_at, stop_reason)
                    VALUES (@id, @conversationId, @seq, @role, @content, @status, @modelId, @clientId, @now, @stopReason)`),
      updateContent: p("UPDATE messages SET content = ? WHERE id = ? AND status = 'streaming'"),
      updateSettledContent: p("UPDATE messages SET content = ? WHERE id = ? AND role = 'assistant'"),
      finalize: p(`UPDATE messages SET content = @content, status = @status, model_id = @modelId,
                   prompt_tokens = @promptTokens, completion_tokens = @completionTokens,
                   stop_reason = @stopReason, error_code = @errorCode, error_message = @errorMessage
                   WHERE id = @id AND status = 'streaming' RETURNING conversation_id, seq`),
      deleteMsg: p("DELETE FROM messages WHERE id = ?"),
      getMsg: p(`SELECT ${MSG_COLS} FROM messages WHERE id = ?`),
      pageMsgs: p(`SELECT ${MSG_COLS} FROM messages WHERE conversation_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`),
      msgByClient: p(`SELECT ${MSG_COLS} FROM messages WHERE conversation_id = ? AND client_id = ?`),
      // Bounded by the agent's 50 most recent conversations, so a long history costs nothing more.
      recentModels: p(`WITH recent AS (SELECT id, agent_config, updated_at FROM conversations WHERE agent_key = @agentKey ORDER BY updated_at DESC LIMIT 50)
                        SELECT model FROM (
                          SELECT m.model_id AS model, m.created_at AS at FROM messages m JOIN recent r ON r.id = m.conversation_id
                           WHERE m.role = 'assistant' AND m.model_id IS NOT NULL AND m.model_id != ''
                          UNION ALL
                          SELECT json_extract(agent_config, '$.model') AS model, updated_at AS at FROM recent
                           WHERE json_valid(agent_config) AND json_type(agent_config, '$.model') = 'text'
                        ) GROUP BY model ORDER BY MAX(at) DESC LIMIT @limit`),
      countUser: p("SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ? AND role = 'user'"),
      streaming: p("SELECT id, conversation_id, seq, content FROM messages WHERE status = 'streaming'"),
      failStreaming: p("UPDATE messages SET status = 'failed', error_code = @code, error_message = @message WHERE id = @id"),
      countPending: p("SELECT COUNT(*) AS n FROM pending_messages WHERE conversation_id = ?"),
      // SQLite reads only what substr needs; a frame never loads the whole queued texts.
      listPendingPreviews: p("SELECT id, substr(text, 1, ?) AS head, length(text) AS length FROM pending_messages WHERE conversation_id = ? ORDER BY position"),
      listPending: p("SELECT id, text, client_id FROM pending_messages WHERE conversation_id = ? ORDER BY position"),
      nextPosition: p("SELECT COALESCE(MAX(position) + 1, 0) AS position FROM pending_messages WHERE conversation_id = ?"),
      insertPending: p(`INSERT INTO pending_messages (id, conversation_id, position, text, client_id, created_at)
                        VALUES (@id, @conversationId, @position, @text, @clientId, @now)`),
      clearPending: p("DELETE FROM pending_messages WHERE conversation_id = ?"),
      deletePending: p("DELETE FROM pending_messages WHERE id = ?"),
      pendingByClient: p("SELECT id, text, client_id FROM pending_messages WHERE conversation_id = ? AND client_id = ?"),
      audit: p("INSERT INTO audit_log (at, actor, action, details) VALUES (?, ?, ?, ?)"),
    };
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
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
    this.s.setBinding.run(binding?.channel ?? null, binding?.chatId ?? null, binding?.channelId ?? null, id);
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

  conversationsWithPending(): string[] {
    return (this.s.withPending.all() as { id: string }[]).map((r) => r.id);
  }

  insertMessage(m: NewMessage): MessageOut {
    return this.transaction(() => {
      const { seq } = this.s.nextSeq.get(m.conversationId) as { seq: number };
      this.s.insertMsg.run({
        id: m.id,
        conversationId: m.conversationId,
        seq,
        role: m.role,
        content: JSON.stringify(m.content),
        status: m.status,
        modelId: m.modelId,
        clientId: m.clientId,
        now: m.now,
        stopReason: m.role === "user" && m.steered ? STEERED_USER_MARK : null,
      });
      if (m.status !== "streaming") this.index(m.conversationId, seq, m.content);
      return {
        id: m.id,
        conversation_id: m.conversationId,
        seq,
        role: m.role,
        content: [...m.content],
        status: m.status,
        model_id: m.modelId,
        prompt_tokens: null,
        completion_tokens: null,
        stop_reason: null,
        error: null,
        ...(m.role === "user" && m.steered ? { steered: true as const } : {}),
        created_at: new Date(m.now).toISOString(),
      };
    });
  }

  updateMessageContent(id: string, content: readonly ContentBlock[]): void {
    this.s.updateContent.run(JSON.stringify(content), id);
  }

  updateClosedQuestion(id: string, content: readonly ContentBlock[]): void {
    // Only a question block changes, never text: the search index stays as it is.
    this.s.updateSettledContent.run(JSON.stringify(content), id);
  }

  finalizeMessage(id: string, f: MessageFinal): void {
    this.transaction(() => {
      const row = this.s.finalize.get({
        id,
        content: JSON.stringify(f.content),
        status: f.status,
        modelId: f.modelId,
        promptTokens: f.promptTokens,
        completionTokens: f.completionTokens,
        stopReason: f.stopReason,
        errorCode: f.error?.code ?? null,
        errorMessage: f.error?.message ?? null,
      }) as { conversation_id: string; seq: number } | undefined;
      if (row) this.index(row.conversation_id, row.seq, f.content);
    });
  }

  deleteMessage(id: string): void {
    this.s.deleteMsg.run(id);
  }

  getMessage(id: string): MessageOut | null {
    const row = this.s.getMsg.get(id) as MessageRow | undefined;
    return row ? toMessageOut(row) : null;
  }

  listMessages(conversationId: string, before: number | undefined, limit: number) {
    const rows = this.s.pageMsgs.all(conversationId, before ?? Number.MAX_SAFE_INTEGER, limit + 1) as MessageRow[];
    const hasMore = rows.length > limit;
    const page = hasMore ? rows.slice(0, limit) : rows;
    return { messages: page.reverse().map(toMessageOut), hasMore };
  }

  findMessageByClientId(conversationId: string, clientId: string): MessageOut | null {
    const row = this.s.msgByClient.get(conversationId, clientId) as MessageRow | undefined;
    return row ? toMessageOut(row) : null;
  }

  recentModels(agentKey: string, limit: number): string[] {
    return (this.s.recentModels.all({ agentKey, limit }) as { model: string }[]).map((r) => r.model);
  }

  countUserMessages(conversationId: string): number {
    return (this.s.countUser.get(conversationId) as { n: number }).n;
  }

  failStreamingMessages(error: TurnFailure): string[] {
    return this.transaction(() => {
      const rows = this.s.streaming.all() as { id: string; conversation_id: string; seq: number; content: string }[];
      for (const r of rows) {
        this.s.failStreaming.run({ id: r.id, code: error.code, message: error.message });
        this.index(r.conversation_id, r.seq, parseContent(r.content));
      }
      return rows.map((r) => r.conversation_id);
    });
  }

  listPending(conversationId: string): PendingRow[] {
    return (this.s.listPending.all(conversationId) as { id: string; text: string; client_id: string | null }[]).map(
      (r) => ({ id: r.id, text: r.text, clientId: r.client_id }),
    );
  }

  countPending(conversationId: string): number {
    return (this.s.countPending.get(conversationId) as { n: number }).n;
  }

  listPendingPreviews(conversationId: string, chars: number): { id: string; head: string; length: number }[] {
    return this.s.listPendingPreviews.all(chars, conversationId) as { id: string; head: string; length: number }[];
  }

  appendPending(conversationId: string, row: PendingRow, now: number): void {
    this.transaction(() => {
      const { position } = this.s.nextPosition.get(conversationId) as { position: number };
      this.s.insertPending.run({ id: row.id, conversationId, position, text: row.text, clientId: row.clientId, now });
    });
  }

  replacePending(conversationId: string, rows: readonly PendingRow[], now: number): void {
    this.transaction(() => {
      this.s.clearPending.run(conversationId);
      rows.forEach((row, position) =>
        this.s.insertPending.run({ id: row.id, conversationId, position, text: row.text, clientId: row.clientId, now }),
      );
    });
  }

  deletePending(id: string): void {
    this.s.deletePending.run(id);
  }

  findPendingByClientId(conversationId: string, clientId: string): PendingRow | null {
    const r = this.s.pendingByClient.get(conversationId, clientId) as
      | { id: string; text: string; client_id: string | null }
      | undefined;
    return r ? { id: r.id, text: r.text, clientId: r.client_id } : null;
  }

  appendAudit(actor: AuditActor, action: AuditAction, details: Record<string, unknown>, now: number): void {
    this.s.audit.run(now, actor, action, JSON.stringify(this.auditFilter(details)));
  }

  private index(conversationId: string, seq: number, content: readonly ContentBlock[]): void {
    const text = searchableText(content);
    if (!text) return;
    const row = this.s.rowidOf.get(conversationId) as { rowid: number } | undefined;
    if (row) this.search.appendText(row.rowid, text, seq);
  }
}
