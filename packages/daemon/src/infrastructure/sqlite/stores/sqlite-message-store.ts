import { SqliteAttachmentStore } from "./sqlite-attachment-store.js";
import type { ContentBlock, MessageOut } from "@coffer/protocol";
import type { MessageFinal, MessageStore, NewMessage, TurnFailure } from "../../../application/ports.js";
import type { Db } from "../database.js";
import { parseContent, searchableText, STEERED_USER_MARK, toMessageOut, type MessageRow } from "../rows/chat-rows.js";
import type { SearchIndex } from "../search/search-index.js";

const MSG_COLS =
  "id, conversation_id, seq, role, content, status, model_id, prompt_tokens, completion_tokens, stop_reason, error_code, error_message, voice, schedule, created_at";

/**
 * MessageStore on better-sqlite3: each conversation's thread. A settled row's text goes into the
 * search index the conversation store reads (the same SearchIndex, the same database handle).
 */
export class SqliteMessageStore implements MessageStore {
  private readonly s;

  private readonly attachments: SqliteAttachmentStore;

  constructor(
    private readonly db: Db,
    private readonly search: SearchIndex,
  ) {
    this.attachments = new SqliteAttachmentStore(db);
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      rowidOf: p("SELECT rowid FROM conversations WHERE id = ?"),
      nextSeq: p("SELECT COALESCE(MAX(seq) + 1, 0) AS seq FROM messages WHERE conversation_id = ?"),
      // A user row has no stop reason of its own: its stop_reason column marks a steered message (chat-rows.ts).
      insertMsg: p(`INSERT INTO messages (id, conversation_id, seq, role, content, status, model_id, client_id, created_at, stop_reason, voice, schedule)
                    VALUES (@id, @conversationId, @seq, @role, @content, @status, @modelId, @clientId, @now, @stopReason, @voice, @schedule)`),
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
    };
  }

  insertMessage(m: NewMessage): MessageOut {
    return this.transaction(() => {
      const attachments = m.attachments ?? [];
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
        voice: m.role === "user" && m.voice ? 1 : 0,
        schedule: m.role === "user" && m.schedule ? JSON.stringify(m.schedule) : null,
      });
      if (m.status !== "streaming") this.index(m.conversationId, seq, m.content);
      this.attachments.linkMessage(m.id, attachments.map((a) => a.id));
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
        ...(m.role === "user" && m.voice ? { voice: true as const } : {}),
        ...(m.role === "user" && m.schedule ? { schedule: { id: m.schedule.id, name: m.schedule.name } } : {}),
        ...(attachments.length ? { attachments: [...attachments] } : {}),
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
    return row ? this.withAttachments([toMessageOut(row)])[0]! : null;
  }

  listMessages(conversationId: string, before: number | undefined, limit: number) {
    const rows = this.s.pageMsgs.all(conversationId, before ?? Number.MAX_SAFE_INTEGER, limit + 1) as MessageRow[];
    const hasMore = rows.length > limit;
    const page = hasMore ? rows.slice(0, limit) : rows;
    return { messages: this.withAttachments(page.reverse().map(toMessageOut)), hasMore };
  }

  findMessageByClientId(conversationId: string, clientId: string): MessageOut | null {
    const row = this.s.msgByClient.get(conversationId, clientId) as MessageRow | undefined;
    return row ? this.withAttachments([toMessageOut(row)])[0]! : null;
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

  private index(conversationId: string, seq: number, content: readonly ContentBlock[]): void {
    const text = searchableText(content);
    if (!text) return;
    const row = this.s.rowidOf.get(conversationId) as { rowid: number } | undefined;
    if (row) this.search.appendText(row.rowid, text, seq);
  }

  /** Each message with the files it carries (one query per page): the owner's sent, the agent's shared (coffer__share_file). */
  private withAttachments(messages: MessageOut[]): MessageOut[] {
    const found = this.attachments.forMessages(messages.map((m) => m.id));
    if (found.size === 0) return messages;
    return messages.map((m) => (found.has(m.id) ? { ...m, attachments: found.get(m.id)! } : m));
  }

  private transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }
}
