import { Cron } from "croner";
import type { CronTimetable } from "../../application/schedules/cron-ports.js";

/**
 * CronTimetable on croner: 5-field cron (6 with seconds), read in an IANA zone, DST handled by
 * croner. Each call builds a paused Cron (no timer of croner's own runs: the daemon's AlarmClock
 * does the waiting, so a sleeping machine is noticed on wake).
 */
export function cronerTimetable(): CronTimetable {
  return {
    problem(expression, zone) {
      try {
        new Intl.DateTimeFormat("en-US", { timeZone: zone });
      } catch {
        return { field: "zone", why: `unknown time zone "${zone}"` };
      }
      try {
        const job = new Cron(expression, { timezone: zone, paused: true });
        if (job.nextRun() === null) return { field: "when", why: "the cron expression never runs" };
        return null;
      } catch (err) {
        return { field: "when", why: `not a cron expression this daemon reads (${err instanceof Error ? err.message : String(err)})` };
      }
    },
    nextAfter(expression, zone, after) {
      const next = new Cron(expression, { timezone: zone, paused: true }).nextRun(new Date(after));
      return next ? next.getTime() : null;
    },
  };
}
