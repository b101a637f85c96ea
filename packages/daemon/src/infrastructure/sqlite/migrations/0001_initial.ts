/** Conversations, messages, the durable pending queue, the audit log, and full-text search. */
export const sql = `
CREATE TABLE conversations (
  id                 TEXT PRIMARY KEY,
  agent_key          TEXT NOT NULL,
  title              TEXT NOT NULL,
  title_set_by_owner INTEGER NOT NULL DEFAULT 0,
  model_id           TEXT,
  agent_config       TEXT NOT NULL DEFAULT '{}',
  channel_name       TEXT,
  peer_chat_id       TEXT,
  queue_paused       INTEGER NOT NULL DEFAULT 0,
  created_at         INTEGER NOT NULL,
  updated_at         INTEGER NOT NULL,
  archived_at        INTEGER
);
-- The history list: newest first, active and archived views, keyset-paged.
CREATE INDEX conversations_active_recent ON conversations (updated_at DESC, id DESC) WHERE archived_at IS NULL;
CREATE INDEX conversations_archived_recent ON conversations (updated_at DESC, id DESC) WHERE archived_at IS NOT NULL;
-- Retention: archived conversations by age.
CREATE INDEX conversations_archived_at ON conversations (archived_at) WHERE archived_at IS NOT NULL;

CREATE TABLE messages (
  id                TEXT PRIMARY KEY,
  conversation_id   TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  seq               INTEGER NOT NULL,
  role              TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
  content           TEXT NOT NULL,
  status            TEXT NOT NULL CHECK (status IN ('complete', 'streaming', 'failed')),
  model_id          TEXT,
  prompt_tokens     INTEGER,
  completion_tokens INTEGER,
  client_id         TEXT,
  created_at        INTEGER NOT NULL,
  CONSTRAINT messages_conversation_seq UNIQUE (conversation_id, seq)
);
CREATE UNIQUE INDEX messages_client_id ON messages (conversation_id, client_id) WHERE client_id IS NOT NULL;
CREATE INDEX messages_streaming ON messages (status) WHERE status = 'streaming';

CREATE TABLE pending_messages (
  id              TEXT PRIMARY KEY,
  conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  position        INTEGER NOT NULL,
  text            TEXT NOT NULL,
  client_id       TEXT,
  created_at      INTEGER NOT NULL
);
CREATE INDEX pending_messages_queue ON pending_messages (conversation_id, position);
CREATE UNIQUE INDEX pending_messages_client_id ON pending_messages (conversation_id, client_id) WHERE client_id IS NOT NULL;

CREATE TABLE audit_log (
  id      INTEGER PRIMARY KEY AUTOINCREMENT,
  at      INTEGER NOT NULL,
  actor   TEXT NOT NULL,
  action  TEXT NOT NULL,
  details TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_action_at ON audit_log (action, at);

-- One search document per conversation (rowid = conversations.rowid): its title and the
-- text of its finished messages. The list's q asks "which conversations mention this",
-- so a per-conversation document answers common words without touching every message.
CREATE VIRTUAL TABLE conversation_search USING fts5 (title, body, tokenize = 'unicode61 remove_diacritics 2');
`;
