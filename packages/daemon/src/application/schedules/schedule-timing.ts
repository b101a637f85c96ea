import type { ScheduleWhen } from "@coffer/protocol";
import type { CronTimetable } from "./cron-ports.js";

/** The plain presets are cron underneath: one parser, one meaning of "07:00" in the owner's zone. */
export function cronOf(when: ScheduleWhen): string {
  if ("cron" in when) return when.cron;
  if (when.preset === "hourly") return "0 * * * *";
  const [h, m] = when.at.split(":").map(Number);
  return when.preset === "daily_at" ? `${m} ${h} * * *` : `${m} ${h} * * 1-5`;
}

/** Counting stops here: after a very long sleep "missed 1000+ runs" says enough. */
export const MISSED_COUNT_CAP = 1000;

/**
 * How many due times fell in [firstDue, now] (at least 1: the one that woke us). A machine that
 * slept through 3 of them runs once and says "missed 3".
 */
export function dueTimesSince(cron: CronTimetable, expression: string, zone: string, firstDue: number, now: number): number {
  let count = 1;
  let t = firstDue;
  while (count < MISSED_COUNT_CAP) {
    const next = cron.nextAfter(expression, zone, t);
    if (next === null || next > now) break;
    count++;
    t = next;
  }
  return count;
}
