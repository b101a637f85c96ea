import type { LaterMark } from "./later.js";

// Send later in words and from words, shared by the page, the CLI and the phone's /later, so
// "07:00", "in 2h" and "⏰ Will send at Mon 7 Dec, 07:00" mean and read the same everywhere.
// Kept apart from later.ts so the page's first load carries only the schema, not this.

const STYLE = { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" } as const;

/** "Mon 7 Dec, 07:00" in `zone` (a zone this runtime does not know: UTC, named). */
export function laterTimeWords(iso: string, zone: string): string {
  const d = new Date(iso);
  try {
    return new Intl.DateTimeFormat("en-GB", { ...STYLE, timeZone: zone }).format(d);
  } catch {
    return `${new Intl.DateTimeFormat("en-GB", { ...STYLE, timeZone: "UTC" }).format(d)} UTC`;
  }
}

/** "⏰ Will send at Mon 7 Dec, 07:00" / "⏰ Will send when the limit resets (Mon 7 Dec, 07:40)": the answer to scheduling. */
export function willSendWords(mark: Pick<LaterMark, "send_at" | "when">, zone: string): string {
  const at = laterTimeWords(mark.send_at, zone);
  return mark.when === "limit_reset" ? `⏰ Will send when the limit resets (${at})` : `⏰ Will send at ${at}`;
}

/** A queued item's mark: "⏰ Mon 7 Dec, 07:00", "⏰ at the limit reset, …", "⏰ due — sent on start (came due while Coffer was down)". */
export function laterMarkWords(mark: LaterMark, zone: string): string {
  const at = laterTimeWords(mark.send_at, zone);
  if (mark.missed) return `⏰ due ${at} — came due while Coffer was down, sent on start`;
  if (mark.due) return `⏰ due ${at} — runs in its turn`;
  return mark.when === "limit_reset" ? `⏰ at the limit reset, ${at}` : `⏰ ${at}`;
}

/** When a message is to go: at an epoch-ms time, or at the agent's plan-limit reset. */
export type LaterWhen = { readonly at: number } | { readonly reset: true };

/** The words `/later` and `coffer chat send --at/--in` take, for a usage line. */
export const LATER_WORDS_HELP = "07:00, 7am, 7:30pm, in 2h, in 30m, in 1h30m, tomorrow 09:00, reset";

/**
 * Reads the "when" at the start of `words`: `07:00` / `7am` / `7:30pm` (the next such time in
 * `zone`), `tomorrow 09:00`, `in 2h` / `in 30m` / `in 1h30m`, `reset`. Returns the time and how
 * many words it took, or null when the words name no time.
 */
export function parseLaterWhen(words: readonly string[], now: number, zone: string): { when: LaterWhen; used: number } | null {
  const first = words[0]?.toLowerCase();
  if (!first) return null;
  if (first === "reset" || first === "at-reset") return { when: { reset: true }, used: 1 };
  if (first === "in" && words[1]) {
    const ms = parseDuration(words[1]);
    return ms ? { when: { at: now + ms }, used: 2 } : null;
  }
  if (first === "tomorrow" && words[1]) {
    const hm = parseClock(words[1]);
    if (!hm) return null;
    const today = zonedDay(now, zone);
    return { when: { at: zonedEpoch(today.y, today.m, today.d + 1, hm.h, hm.m, zone) }, used: 2 };
  }
  const hm = parseClock(first);
  return hm ? { when: { at: nextClockTime(hm.h, hm.m, now, zone) }, used: 1 } : null;
}

/** "2h", "30m", "1h30m", "90s" → ms; null when not a positive duration. */
export function parseDuration(text: string): number | null {
  const m = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m(?:in)?)?(?:(\d+)s)?$/i.exec(text.trim());
  if (!m || !m.slice(1).some(Boolean)) return null;
  const [d, h, mi, s] = m.slice(1).map((v) => Number(v ?? 0));
  const ms = (((d! * 24 + h!) * 60 + mi!) * 60 + s!) * 1000;
  return ms > 0 ? ms : null;
}

/** "07:00", "7:05", "7am", "7:30pm", "12am" → hours and minutes; null otherwise. */
export function parseClock(text: string): { h: number; m: number } | null {
  const m = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/i.exec(text.trim());
  if (!m || (m[2] === undefined && !m[3])) return null;
  let h = Number(m[1]);
  const min = Number(m[2] ?? 0);
  if (min > 59) return null;
  if (m[3]) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (m[3].toLowerCase() === "pm" ? 12 : 0);
  } else if (h > 23) return null;
  return { h, m: min };
}

/** The next `h:m` in `zone` after `now` ("07:00" typed at 08:00 means tomorrow's). */
export function nextClockTime(h: number, m: number, now: number, zone: string): number {
  const today = zonedDay(now, zone);
  const t = zonedEpoch(today.y, today.m, today.d, h, m, zone);
  return t > now ? t : zonedEpoch(today.y, today.m, today.d + 1, h, m, zone);
}

function parts(ms: number, zone: string): Record<string, number> {
  const out: Record<string, number> = {};
  const f = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
  for (const p of f.formatToParts(new Date(ms))) if (p.type !== "literal") out[p.type] = Number(p.value);
  return out;
}

/** The calendar day `ms` falls on in `zone` (month 0-based, as Date.UTC takes it). */
function zonedDay(ms: number, zone: string): { y: number; m: number; d: number } {
  const p = parts(ms, zone);
  return { y: p.year!, m: p.month! - 1, d: p.day! };
}

/** How far `zone`'s wall clock is ahead of UTC at `ms`. */
function offsetAt(ms: number, zone: string): number {
  const p = parts(ms, zone);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour! % 24, p.minute!, p.second!) - Math.floor(ms / 1000) * 1000;
}

/** The instant the wall clock in `zone` reads y-m-d h:m (day overflow rolls into the next month). */
export function zonedEpoch(y: number, m: number, d: number, h: number, min: number, zone: string): number {
  const wall = Date.UTC(y, m, d, h, min);
  const first = wall - offsetAt(wall, zone);
  // Twice: the offset at the guess can differ from the offset at the answer across a DST change.
  return wall - offsetAt(first, zone);
}
