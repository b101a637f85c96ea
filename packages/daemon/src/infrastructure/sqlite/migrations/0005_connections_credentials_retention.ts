/**
 * Credentials (sealed with AES-256-GCM: nonce, ciphertext and tag, never the plaintext), LLM
 * connections that point at a credential by ref, and a small key/value settings table that
 * holds the retention windows.
 */
export const sql = `
CREATE TABLE credentials (
  ref        TEXT PRIMARY KEY,
  nonce      BLOB NOT NULL,
  ciphertext BLOB NOT NULL,
  tag        BLOB NOT NULL,
  -- Fingerprint of the master key that sealed the row: a replaced key file is reported, not misread.
  key_id     TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE llm_connections (
  id               TEXT PRIMARY KEY,
  name             TEXT NOT NULL COLLATE NOCASE UNIQUE,
  wire             TEXT NOT NULL,
  base_url         TEXT,
  model            TEXT NOT NULL,
  credential_ref   TEXT,
  internal_default INTEGER NOT NULL DEFAULT 0 CHECK (internal_default IN (0, 1)),
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
);
-- At most one connection is Coffer's internal default, whatever a caller does.
CREATE UNIQUE INDEX llm_connections_one_internal_default ON llm_connections (internal_default) WHERE internal_default = 1;

CREATE TABLE settings (
  key        TEXT PRIMARY KEY,
  value      TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
`;
