import type { ScheduleLastRun, ScheduleTarget, ScheduleWhen } from "@coffer/protocol";
import type { ScheduleStore, StoredSchedule } from "../../../application/schedules/schedule-ports.js";
import type { Db } from "../database.js";

interface ScheduleRow {
  id: string;
  name: string;
  prompt: string;
  when_json: string;
  target_json: string;
  paused: number;
  next_due_ms: number | null;
  last_run_json: string | null;
  created_at: number;
}

const COLS = "id, name, prompt, when_json, target_json, paused, next_due_ms, last_run_json, created_at";

/** Recurring prompts (migration 0018). The JSON columns hold protocol shapes checked before they were stored. */
export class SqliteScheduleStore implements ScheduleStore {
  private readonly s;

  constructor(db: Db) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      list: p(`SELECT ${COLS} FROM schedules ORDER BY created_at, id`),
      get: p(`SELECT ${COLS} FROM schedules WHERE id = ?`),
      insert: p(`INSERT INTO schedules (id, name, prompt, when_json, target_json, paused, next_due_ms, last_run_json, created_at, updated_at)
                 VALUES (@id, @name, @prompt, @when, @target, @paused, @nextDue, @lastRun, @createdAt, @now)`),
      update: p(`UPDATE schedules SET name = @name, prompt = @prompt, when_json = @when, target_json = @target, paused = @paused, updated_at = @now WHERE id = @id`),
      remove: p("DELETE FROM schedules WHERE id = ?"),
      nextDue: p("UPDATE schedules SET next_due_ms = ? WHERE id = ?"),
      lastRun: p("UPDATE schedules SET last_run_json = ? WHERE id = ?"),
    };
  }

  list(): StoredSchedule[] {
    const rows = this.s.list.all() as ScheduleRow[];
    return rows.map(toSchedule);
  }

  get(id: string): StoredSchedule | null {
    const [row] = this.s.get.all(id) as ScheduleRow[];
    return row === undefined ? null : toSchedule(row);
  }

  insert(s: StoredSchedule, now: number): void {
    this.s.insert.run({ ...params(s), nextDue: s.nextDue, lastRun: s.lastRun ? JSON.stringify(s.lastRun) : null, createdAt: s.createdAt, now });
  }

  update(s: StoredSchedule, now: number): void {
    this.s.update.run({ ...params(s), now });
  }

  remove(id: string): boolean {
    return this.s.remove.run(id).changes > 0;
  }

  setNextDue(id: string, nextDue: number | null): void {
    this.s.nextDue.run(nextDue, id);
  }

  setLastRun(id: string, lastRun: ScheduleLastRun): void {
    this.s.lastRun.run(JSON.stringify(lastRun), id);
  }
}

function params(s: StoredSchedule) {
  return { id: s.id, name: s.name, prompt: s.prompt, when: JSON.stringify(s.when), target: JSON.stringify(s.target), paused: s.paused ? 1 : 0 };
}

function toSchedule(r: ScheduleRow): StoredSchedule {
  return {
    id: r.id,
    name: r.name,
    prompt: r.prompt,
    when: JSON.parse(r.when_json) as ScheduleWhen,
    target: JSON.parse(r.target_json) as ScheduleTarget,
    paused: r.paused === 1,
    nextDue: r.next_due_ms,
    lastRun: r.last_run_json ? (JSON.parse(r.last_run_json) as ScheduleLastRun) : null,
    createdAt: r.created_at,
  };
}
