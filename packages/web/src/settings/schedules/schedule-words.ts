// The timetable, target and last-run words are the protocol's (the phone's /schedules says them too).
export { lastRunWords, targetWords, whenWords } from "@coffer/protocol";

/**
 * A run's time read in the schedule's own zone (the one its timetable is in), so "Daily at
 * 07:00 · Europe/Berlin" sits beside "Dec 6, 07:00" and not beside the browser's own hour.
 */
export function runTime(ts: string | null | undefined, timeZone: string): string {
  if (!ts) return "—";
  const d = new Date(ts);
  if (Number.isNaN(d.getTime())) return ts;
  try {
    return new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short", timeZone }).format(d);
  } catch {
    // A zone this browser does not know: its own clock, rather than nothing.
    return new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(d);
  }
}
