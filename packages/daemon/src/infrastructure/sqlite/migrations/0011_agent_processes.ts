/**
 * Every agent process the daemon has running, written when it starts and deleted when it
 * exits: what a `kill -9` leaves here is what the next daemon reaps (orphan-reaper.ts).
 * `mark` is the random value in the process's COFFER_AGENT_MARK (its tools inherit it);
 * `start_ticks` its start time from /proc, so a reused pid is never taken for it.
 */
export const sql = `
CREATE TABLE agent_processes (
  mark            TEXT PRIMARY KEY,
  pid             INTEGER NOT NULL,
  pgid            INTEGER NOT NULL,
  agent_key       TEXT NOT NULL,
  conversation_id TEXT,
  start_ticks     INTEGER,
  recorded_at     INTEGER NOT NULL
);
`;
