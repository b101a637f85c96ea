/**
 * Recurring prompts (issue 27). `when_json` / `target_json` hold the protocol's ScheduleWhen and
 * ScheduleTarget as given (validated before they are stored); `last_run_json` the latest run's
 * outcome. `next_due_ms` is the due time the scheduler armed, kept so that after a restart or a
 * sleep it can count the runs missed since then (one catch-up run, not N). A message a schedule
 * sent (or queued) carries `schedule` = JSON {id, name}: the clock mark in history.
 */
export const sql = `
CREATE TABLE schedules (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  prompt TEXT NOT NULL,
  when_json TEXT NOT NULL,
  target_json TEXT NOT NULL,
  paused INTEGER NOT NULL DEFAULT 0,
  next_due_ms INTEGER,
  last_run_json TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
ALTER TABLE messages ADD COLUMN schedule TEXT;
ALTER TABLE pending_messages ADD COLUMN schedule TEXT;
`;
