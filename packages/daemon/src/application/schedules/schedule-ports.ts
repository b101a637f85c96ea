import type { ScheduleLastRun, ScheduleTarget, ScheduleWhen } from "@coffer/protocol";

export interface StoredSchedule {
  readonly id: string;
  readonly name: string;
  readonly prompt: string;
  readonly when: ScheduleWhen;
  readonly target: ScheduleTarget;
  readonly paused: boolean;
  /** The due time the scheduler armed (kept across restarts: a missed one is caught up once). */
  readonly nextDue: number | null;
  readonly lastRun: ScheduleLastRun | null;
  readonly createdAt: number;
}

/** Recurring prompts (infrastructure/sqlite/stores/sqlite-schedule-store.ts). */
export interface ScheduleStore {
  list(): StoredSchedule[];
  get(id: string): StoredSchedule | null;
  insert(s: StoredSchedule, now: number): void;
  update(s: StoredSchedule, now: number): void;
  remove(id: string): boolean;
  setNextDue(id: string, nextDue: number | null): void;
  setLastRun(id: string, lastRun: ScheduleLastRun): void;
}
