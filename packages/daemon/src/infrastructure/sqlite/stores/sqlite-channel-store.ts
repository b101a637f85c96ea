import type {
  ChannelChanges,
  ChannelCounter,
  ChannelOwner,
  ChannelRecord,
  ChannelStore,
  ChatKey,
  NewChannel,
  OutboxRow,
  OutgoingMessage,
} from "../../../application/channels/ports.js";
import type { Db } from "../database.js";
import {
  CHANNEL_COLS,
  OUTBOX_COLS,
  toChannelRecord,
  toOutboxRow,
  type ChannelRow,
  type OutboxDbRow,
} from "../rows/channel-rows.js";

const COUNTER_COLUMN: Record<ChannelCounter, string> = {
  messagesIn: "messages_in",
  messagesOut: "messages_out",
  strangersIgnored: "strangers_ignored",
};

/**
 * Channels (bots), their chats' active conversations and the outbox. Deleting a channel takes its
 * chats and outbox with it (ON DELETE CASCADE); its conversations are unbound by the chat store.
 */
export class SqliteChannelStore implements ChannelStore {
  private readonly s;
  private readonly bumps;

  constructor(private readonly db: Db) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      list: p(`SELECT ${CHANNEL_COLS} FROM channels ORDER BY created_at, name`),
      get: p(`SELECT ${CHANNEL_COLS} FROM channels WHERE id = ?`),
      byName: p(`SELECT ${CHANNEL_COLS} FROM channels WHERE name = ?`),
      byBotId: p(`SELECT ${CHANNEL_COLS} FROM channels WHERE bot_id = ?`),
      insert: p(`INSERT INTO channels (id, kind, name, credential_refs, default_agent, default_cwd, default_model,
                   bot_id, bot_username, bot_name, created_at, updated_at)
                 VALUES (@id, @kind, @name, @credentialRefs, @defaultAgent, @defaultCwd, @defaultModel,
                   @botId, @botUsername, @botName, @now, @now)`),
      // One statement for every partial update: a has* flag says whether the field was given.
      update: p(`UPDATE channels SET
                   name          = CASE WHEN @hasName THEN @name ELSE name END,
                   credential_refs = CASE WHEN @hasCredentialRefs THEN @credentialRefs ELSE credential_refs END,
                   default_agent = CASE WHEN @hasDefaultAgent THEN @defaultAgent ELSE default_agent END,
                   default_cwd   = CASE WHEN @hasDefaultCwd THEN @defaultCwd ELSE default_cwd END,
                   default_model = CASE WHEN @hasDefaultModel THEN @defaultModel ELSE default_model END,
                   bot_id        = CASE WHEN @hasBot THEN @botId ELSE bot_id END,
                   bot_username  = CASE WHEN @hasBot THEN @botUsername ELSE bot_username END,
                   bot_name      = CASE WHEN @hasBot THEN @botName ELSE bot_name END,
                   updated_at    = @now
                 WHERE id = @id`),
      setEnabled: p("UPDATE channels SET enabled = ?, updated_at = ? WHERE id = ?"),
      delete: p("DELETE FROM channels WHERE id = ?"),
      setOwner: p(`UPDATE channels SET owner_chat_id = @chatId, owner_user_id = @userId, owner_name = @name,
                     paired_at = @pairedAt, updated_at = MAX(updated_at, @pairedAt) WHERE id = @id`),
      setCursor: p("UPDATE channels SET cursor = ? WHERE id = ?"),
      activeConversation: p(
        "SELECT active_conversation_id AS id FROM channel_chats WHERE channel_id = ? AND chat_id = ? AND thread_id = ?",
      ),
      setActiveConversation: p(`INSERT INTO channel_chats (channel_id, chat_id, thread_id, active_conversation_id)
                                VALUES (?, ?, ?, ?)
                                ON CONFLICT (channel_id, chat_id, thread_id)
                                DO UPDATE SET active_conversation_id = excluded.active_conversation_id`),
      countBound: p("SELECT COUNT(*) AS n FROM conversations WHERE channel_id = ?"),
      boundElsewhere: p("SELECT id FROM conversations WHERE channel_id = ? AND peer_chat_id IS NOT ? ORDER BY updated_at DESC, id"),
      dropOtherOutbox: p("DELETE FROM channel_outbox WHERE channel_id = ? AND chat_id IS NOT ?"),
      carryActive: p(`INSERT INTO channel_chats (channel_id, chat_id, thread_id, active_conversation_id)
                      SELECT channel_id, @to, thread_id, active_conversation_id FROM channel_chats
                      WHERE channel_id = @channelId AND chat_id = @from AND active_conversation_id IS NOT NULL
                      ON CONFLICT (channel_id, chat_id, thread_id) DO UPDATE SET active_conversation_id = excluded.active_conversation_id`),
      dropOtherChats: p("DELETE FROM channel_chats WHERE channel_id = ? AND chat_id IS NOT ?"),
      enqueue: p(`INSERT INTO channel_outbox (channel_id, chat_id, thread_id, text, html, silent, buttons, file, created_at)
                  VALUES (@channelId, @chatId, @threadId, @text, @html, @silent, @buttons, @file, @now)`),
      outbox: p(`SELECT ${OUTBOX_COLS} FROM channel_outbox WHERE channel_id = ? ORDER BY id LIMIT ?`),
      countOutbox: p("SELECT COUNT(*) AS n FROM channel_outbox WHERE channel_id = ?"),
      delivered: p("DELETE FROM channel_outbox WHERE id = ? RETURNING channel_id"),
      failedAttempt: p("UPDATE channel_outbox SET attempts = attempts + 1 WHERE id = ?"),
    };
    const bump = (column: string) => p(`UPDATE channels SET ${column} = ${column} + ? WHERE id = ?`);
    this.bumps = {
      messagesIn: bump(COUNTER_COLUMN.messagesIn),
      messagesOut: bump(COUNTER_COLUMN.messagesOut),
      strangersIgnored: bump(COUNTER_COLUMN.strangersIgnored),
    } satisfies Record<ChannelCounter, unknown>;
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  list(): ChannelRecord[] {
    return (this.s.list.all() as ChannelRow[]).map(toChannelRecord);
  }

  get(id: string): ChannelRecord | null {
    return this.one(this.s.get.get(id));
  }

  findByName(name: string): ChannelRecord | null {
    return this.one(this.s.byName.get(name));
  }

  findByBotId(botId: string): ChannelRecord | null {
    return this.one(this.s.byBotId.get(botId));
  }

  insert(c: NewChannel): void {
    // The statement's parameters are NewChannel's own field names; only the bot is spread out.
    this.s.insert.run({ ...c, credentialRefs: JSON.stringify(c.credentialRefs), botId: c.bot.id, botUsername: c.bot.username, botName: c.bot.name });
  }

  update(id: string, changes: ChannelChanges, now: number): void {
    const has = (v: unknown) => (v === undefined ? 0 : 1);
    this.s.update.run({
      id,
      now,
      hasName: has(changes.name),
      name: changes.name ?? null,
      hasCredentialRefs: has(changes.credentialRefs),
      credentialRefs: changes.credentialRefs ? JSON.stringify(changes.credentialRefs) : null,
      hasDefaultAgent: has(changes.defaultAgent),
      defaultAgent: changes.defaultAgent ?? null,
      hasDefaultCwd: has(changes.defaultCwd),
      defaultCwd: changes.defaultCwd ?? null,
      hasDefaultModel: has(changes.defaultModel),
      defaultModel: changes.defaultModel ?? null,
      hasBot: has(changes.bot),
      botId: changes.bot?.id ?? null,
      botUsername: changes.bot?.username ?? null,
      botName: changes.bot?.name ?? null,
    });
  }

  setEnabled(id: string, enabled: boolean, now: number): void {
    this.s.setEnabled.run(enabled ? 1 : 0, now, id);
  }

  delete(id: string): void {
    this.s.delete.run(id);
  }

  setOwner(id: string, owner: ChannelOwner): void {
    this.s.setOwner.run({ id, chatId: owner.chatId, userId: owner.userId, name: owner.name, pairedAt: owner.pairedAt });
  }

  setCursor(id: string, cursor: string | null): void {
    this.s.setCursor.run(cursor, id);
  }

  bump(id: string, counter: ChannelCounter, by = 1): void {
    this.bumps[counter].run(by, id);
  }

  activeConversation(chat: ChatKey): string | null {
    const r = this.s.activeConversation.get(chat.channelId, chat.chatId, chat.threadId) as { id: string | null } | undefined;
    return r?.id ?? null;
  }

  setActiveConversation(chat: ChatKey, conversationId: string): void {
    this.s.setActiveConversation.run(chat.channelId, chat.chatId, chat.threadId, conversationId);
  }

  countBoundConversations(channelId: string): number {
    return (this.s.countBound.get(channelId) as { n: number }).n;
  }

  boundElsewhere(channelId: string, chatId: string): string[] {
    return (this.s.boundElsewhere.all(channelId, chatId) as { id: string }[]).map((r) => r.id);
  }

  moveOwnerChat(channelId: string, fromChatId: string, toChatId: string): number {
    return this.transaction(() => {
      const dropped = this.s.dropOtherOutbox.run(channelId, toChatId).changes;
      this.s.carryActive.run({ channelId, from: fromChatId, to: toChatId });
      this.s.dropOtherChats.run(channelId, toChatId);
      return dropped;
    });
  }

  enqueue(channelId: string, chatId: string, threadId: string | null, messages: readonly OutgoingMessage[], now: number): void {
    // One transaction: a reply's parts are queued all or none, their ids in delivery order.
    this.transaction(() => {
      for (const m of messages) {
        const buttons = m.buttons?.length ? JSON.stringify(m.buttons) : null;
        const file = m.file ? JSON.stringify(m.file) : null;
        this.s.enqueue.run({ channelId, chatId, threadId, text: m.text, html: m.html ?? null, silent: m.silent ? 1 : 0, buttons, file, now });
      }
    });
  }

  outbox(channelId: string, limit: number): OutboxRow[] {
    return (this.s.outbox.all(channelId, limit) as OutboxDbRow[]).map(toOutboxRow);
  }

  countOutbox(channelId: string): number {
    return (this.s.countOutbox.get(channelId) as { n: number }).n;
  }

  delivered(rowId: number): void {
    this.transaction(() => {
      const r = this.s.delivered.get(rowId) as { channel_id: string } | undefined;
      if (r) this.bumps.messagesOut.run(1, r.channel_id);
    });
  }

  failedAttempt(rowId: number): void {
    this.s.failedAttempt.run(rowId);
  }

  private one(row: unknown): ChannelRecord | null {
    return row ? toChannelRecord(row as ChannelRow) : null;
  }
}
