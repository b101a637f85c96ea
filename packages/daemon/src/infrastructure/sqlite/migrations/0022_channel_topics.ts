/**
 * Forum topics as conversations (issue 26): a conversation's binding names its topic
 * (`peer_thread_id`, NULL for a DM or a group's General topic); each group the bot was added to
 * keeps whether it is served (only the owner and the bot in it, Topics on) and when its member
 * count was last checked; a topic the channel opened keeps the name it gave it (renamed once the
 * conversation has a title).
 */
export const sql = `
ALTER TABLE conversations ADD COLUMN peer_thread_id TEXT;

CREATE TABLE channel_groups (
  channel_id  TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
  chat_id     TEXT NOT NULL,
  is_forum    INTEGER NOT NULL DEFAULT 0,
  members     INTEGER NOT NULL,
  served      INTEGER NOT NULL DEFAULT 0,
  checked_at  INTEGER NOT NULL,
  notice      TEXT,
  PRIMARY KEY (channel_id, chat_id)
);

ALTER TABLE channel_chats ADD COLUMN topic_name TEXT;
`;
