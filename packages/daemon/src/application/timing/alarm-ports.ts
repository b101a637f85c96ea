import type { Clock } from "../ports.js";

/**
 * Wall-clock alarms for work that is due at a time (send later, schedules, reminders). A port so
 * tests drive time by hand (test/support/manual-alarm-clock.ts) instead of waiting in real time.
 *
 * `at(when, fire)` calls `fire` once, at or after the wall-clock time `when` (epoch ms), and returns
 * a cancel function. Implementations must fire late rather than never: after the machine sleeps the
 * alarm fires on wake (once), and the caller compares `now()` with what it expected to notice the
 * gap (e.g. to say "missed while asleep, ran once").
 */
export interface AlarmClock extends Clock {
  at(when: number, fire: () => void): () => void;
}
