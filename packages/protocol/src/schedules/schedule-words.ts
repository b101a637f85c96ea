import type { ScheduleOut, ScheduleTarget, ScheduleWhen } from "./schedules.js";

// How a schedule is said in words, shared by the page (Settings → Schedules) and the phone's
// /schedules, so both say "Daily at 07:00" and "queued behind a running turn" the same way.

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
