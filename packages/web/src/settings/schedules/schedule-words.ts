import type { ScheduleOut, ScheduleTarget, ScheduleWhen } from "@coffer/protocol";

/** "Daily at 07:00", "Weekdays at 08:15", "Hourly", "Cron 0 7 * * 1-5": what the owner chose, not cron. */
export function whenWords(w: ScheduleWhen): string {
  if ("cron" in w) return `Cron ${w.cron}`;
  if (w.preset === "hourly") return "Hourly";
  return `${w.preset === "daily_at" ? "Daily" : "Weekdays"} at ${w.at}`;
}

export function targetWords(t: ScheduleTarget, titleOf: (id: string) => string | undefined): string {
  if ("conversation_id" in t) return `Into “${titleOf(t.conversation_id) ?? t.conversation_id.slice(0, 8)}”`;
  const { agent, cwd, model } = t.fresh;
  return `A fresh ${agent} conversation in ${cwd}${model ? ` (${model})` : ""}`;
}

const STATUS_WORDS = { sent: "sent", queued: "queued behind a running turn", waiting: "waiting for a plan limit's reset", failed: "failed" } as const;

/** The last run as a sentence fragment: when is formatted by the caller. */
export function lastRunWords(s: ScheduleOut): string | null {
  const r = s.last_run;
  if (!r) return null;
  return `${STATUS_WORDS[r.status]}${r.message ? ` — ${r.message}` : ""}`;
}

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
