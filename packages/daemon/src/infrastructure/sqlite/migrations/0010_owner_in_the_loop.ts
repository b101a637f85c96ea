/**
 * Issue 14. A queue parked on a plan limit until its reset: kept so a restart re-arms it
 * (or lifts it, when the reset has passed) instead of forgetting why the queue waits. And
 * how full each conversation's context was after its latest turn (the header's gauge).
 */
export const sql = `
CREATE TABLE queue_holds (
  conversation_id TEXT PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
  reason          TEXT NOT NULL,
  until_ms        INTEGER NOT NULL,
  created_at      INTEGER NOT NULL
);
CREATE TABLE conversation_context (
  conversation_id TEXT PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
  used_tokens     INTEGER NOT NULL,
  window_tokens   INTEGER,
  updated_at      INTEGER NOT NULL
);
`;
