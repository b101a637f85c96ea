/**
 * IM channels (docs/decisions.md, "Channels"): the channel (a bot) with its paired owner and
 * its persisted getUpdates offset, each chat's active conversation, and the outbox of messages
 * still to deliver. Conversations learn which channel they are bound through.
 */
export const sql = `
CREATE TABLE channels (
  id                 TEXT PRIMARY KEY,
  kind               TEXT NOT NULL,
  name               TEXT NOT NULL UNIQUE,
  bot_token_ref      TEXT NOT NULL,
  default_agent      TEXT NOT NULL,
  default_cwd        TEXT,
  default_model      TEXT,
  enabled            INTEGER NOT NULL DEFAULT 1,
  bot_id             TEXT,
  bot_username       TEXT,
  bot_name           TEXT,
  owner_chat_id      TEXT,
  owner_user_id      TEXT,
  owner_name         TEXT,
  paired_at          INTEGER,
  update_offset      INTEGER NOT NULL DEFAULT 0,
  messages_in        INTEGER NOT NULL DEFAULT 0,
  messages_out       INTEGER NOT NULL DEFAULT 0,
  strangers_ignored  INTEGER NOT NULL DEFAULT 0,
  created_at         INTEGER NOT NULL,
  updated_at         INTEGER NOT NULL
);
CREATE UNIQUE INDEX channels_bot ON channels (kind, bot_id) WHERE bot_id IS NOT NULL;

CREATE TABLE channel_chats (
  channel_id              TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
  chat_id                 TEXT NOT NULL,
  thread_id               TEXT NOT NULL DEFAULT '',
  active_conversation_id  TEXT,
  PRIMARY KEY (channel_id, chat_id, thread_id)
);

CREATE TABLE channel_outbox (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  channel_id  TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
  chat_id     TEXT NOT NULL,
  thread_id   TEXT,
  text        TEXT NOT NULL,
  html        TEXT,
  silent      INTEGER NOT NULL DEFAULT 0,
  attempts    INTEGER NOT NULL DEFAULT 0,
  created_at  INTEGER NOT NULL
);
CREATE INDEX channel_outbox_order ON channel_outbox (channel_id, id);

ALTER TABLE conversations ADD COLUMN channel_id TEXT;
CREATE INDEX conversations_channel ON conversations (channel_id) WHERE channel_id IS NOT NULL;
`;
