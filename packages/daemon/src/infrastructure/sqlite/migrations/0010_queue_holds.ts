/**
 * A queue parked on a plan limit until its reset (issue 14): kept so a restart re-arms it
 * (or lifts it, when the reset has passed) instead of forgetting why the queue waits.
 */
export const sql = `
CREATE TABLE queue_holds (
  conversation_id TEXT PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
  reason          TEXT NOT NULL,
  until_ms        INTEGER NOT NULL,
  created_at      INTEGER NOT NULL
);
`;
