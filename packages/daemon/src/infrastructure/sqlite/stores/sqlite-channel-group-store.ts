import type { ChannelGroup, ChannelGroupStore } from "../../../application/channels/group-ports.js";
import type { ChatKey } from "../../../application/channels/ports.js";
import type { Db } from "../database.js";

interface GroupRow {
  chat_id: string;
  is_forum: number;
  members: number;
  served: number;
  checked_at: number;
  notice: string | null;
}

/** Group chats a channel's bot sits in, and the names of the topics it opened (channel_groups, channel_chats.topic_name). */
export class SqliteChannelGroupStore implements ChannelGroupStore {
  private readonly s;

  constructor(db: Db) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      group: p("SELECT chat_id, is_forum, members, served, checked_at, notice FROM channel_groups WHERE channel_id = ? AND chat_id = ?"),
      save: p(`INSERT INTO channel_groups (channel_id, chat_id, is_forum, members, served, checked_at, notice)
               VALUES (@channelId, @chatId, @isForum, @members, @served, @checkedAt, @notice)
               ON CONFLICT (channel_id, chat_id) DO UPDATE SET is_forum = excluded.is_forum, members = excluded.members,
                 served = excluded.served, checked_at = excluded.checked_at, notice = excluded.notice`),
      topicName: p("SELECT topic_name AS name FROM channel_chats WHERE channel_id = ? AND chat_id = ? AND thread_id = ?"),
      setTopicName: p(`INSERT INTO channel_chats (channel_id, chat_id, thread_id, topic_name) VALUES (?, ?, ?, ?)
                       ON CONFLICT (channel_id, chat_id, thread_id) DO UPDATE SET topic_name = excluded.topic_name`),
    };
  }

  group(channelId: string, chatId: string): ChannelGroup | null {
    const r = this.s.group.get(channelId, chatId) as GroupRow | undefined;
    return r
      ? { chatId: r.chat_id, isForum: r.is_forum === 1, members: r.members, served: r.served === 1, checkedAt: r.checked_at, notice: r.notice }
      : null;
  }

  saveGroup(channelId: string, g: ChannelGroup): void {
    this.s.save.run({ channelId, chatId: g.chatId, isForum: g.isForum ? 1 : 0, members: g.members, served: g.served ? 1 : 0, checkedAt: g.checkedAt, notice: g.notice });
  }

  topicName(chat: ChatKey): string | null {
    return (this.s.topicName.get(chat.channelId, chat.chatId, chat.threadId) as { name: string | null } | undefined)?.name ?? null;
  }

  setTopicName(chat: ChatKey, name: string): void {
    this.s.setTopicName.run(chat.channelId, chat.chatId, chat.threadId, name);
  }
}
