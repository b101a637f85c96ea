import type { LimitWindow } from "@coffer/protocol";

/**
 * The morning brief's text (issue 27), from records Coffer already keeps — a pure function, so
 * what the owner reads at 07:30 is tested on fixed records. Empty parts are left out; a quiet
 * night is one line; a long brief stays under the platform's message limit ("… and K more").
 */

export interface BriefConversationLine {
  readonly conversationId: string;
  readonly title: string | null;
  readonly finished: number;
  readonly failed: number;
  readonly stopped: number;
  /** Its /open number as /list numbers it (null: not on the first page). */
  readonly openNumber: number | null;
}

export interface BriefQuestionLine {
  readonly title: string | null;
  readonly text: string;
  readonly askedAt: number;
  readonly openNumber: number | null;
}

export interface BriefQueueLine {
  readonly title: string | null;
  readonly count: number;
  /** Why it does not move, when it is held ("paused", "plan limit until …"). */
  readonly held: string | null;
  readonly openNumber: number | null;
}

export interface BriefScheduleLine {
  readonly name: string;
  readonly ran: number;
  readonly failed: number;
}

export interface BriefLimits {
  readonly agent: string;
  readonly windows: readonly LimitWindow[];
}

export interface BriefRecords {
  readonly since: number;
  readonly at: number;
  readonly zone: string;
  /** Set when this brief was due while the machine slept and is sent on wake. */
  readonly caughtUpFrom: number | null;
  readonly conversations: readonly BriefConversationLine[];
  readonly questions: readonly BriefQuestionLine[];
  readonly queued: readonly BriefQueueLine[];
  readonly schedules: readonly BriefScheduleLine[];
  readonly limits: readonly BriefLimits[];
}

export interface BriefText {
  readonly text: string;
  readonly quiet: boolean;
}

/** Telegram's 4,096 less room for the platform's own markup: a brief is one message. */
export const BRIEF_MAX_CHARS = 3500;

export function briefText(r: BriefRecords, maxChars = BRIEF_MAX_CHARS): BriefText {
  const when = (ms: number) => clock(ms, r.zone);
  const head = `☀️ Coffer brief — since ${when(r.since)}`;
  const wake = r.caughtUpFrom !== null ? `(Due at ${when(r.caughtUpFrom)} while the machine slept; sent on wake.)` : null;
  const sections: { title: string; lines: string[] }[] = [
    { title: "Turns", lines: r.conversations.filter((c) => c.finished + c.failed + c.stopped > 0).map(turnLine) },
    { title: "Open questions", lines: r.questions.map((q) => `• ${name(q.title)}${open(q.openNumber)}: ${oneLine(q.text, 120)} (waiting since ${when(q.askedAt)})`) },
    { title: "Queued", lines: r.queued.filter((q) => q.count > 0).map((q) => `• ${name(q.title)}${open(q.openNumber)}: ${q.count} waiting${q.held ? ` (${q.held})` : ""}`) },
    { title: "Schedules", lines: r.schedules.filter((s) => s.ran + s.failed > 0).map(scheduleLine) },
    { title: "Plan limits", lines: r.limits.filter((l) => l.windows.length > 0).map((l) => `• ${l.agent}: ${l.windows.map((w) => windowWords(w, when)).join("; ")}`) },
  ].filter((s) => s.lines.length > 0);
  const quiet = sections.every((s) => s.title === "Plan limits");
  if (quiet && sections.length === 0) return { text: [`${head}: a quiet night — nothing ran, nothing waits.`, wake].filter(Boolean).join("\n"), quiet: true };

  const out: string[] = [head, ...(wake ? [wake] : [])];
  if (quiet) out.push("A quiet night — nothing ran, nothing waits.");
  let length = out.join("\n").length;
  let left = sections.reduce((n, s) => n + s.lines.length, 0);
  // Room kept for the "… and K more" line, so the cut never pushes the brief past the limit.
  const room = maxChars - 60;
  fill: for (const s of sections) {
    let header: string | null = `\n${s.title}`;
    for (const line of s.lines) {
      const needed = (header ? header.length + 1 : 0) + line.length + 1;
      if (length + needed > room) break fill;
      if (header) out.push(header);
      out.push(line);
      header = null;
      length += needed;
      left--;
    }
  }
  if (left > 0) out.push(`… and ${left} more (the page's history has them all)`);
  return { text: out.join("\n"), quiet };
}

function turnLine(c: BriefConversationLine): string {
  const parts = [c.finished ? `${c.finished} finished` : null, c.failed ? `${c.failed} failed` : null, c.stopped ? `${c.stopped} stopped` : null].filter(Boolean);
  return `• ${name(c.title)}${open(c.openNumber)}: ${parts.join(", ")}`;
}

function scheduleLine(s: BriefScheduleLine): string {
  const parts = [s.ran ? `ran ${times(s.ran)}` : null, s.failed ? `failed ${times(s.failed)}` : null].filter(Boolean);
  return `• ${s.name}: ${parts.join(", ")}`;
}

function windowWords(w: LimitWindow, when: (ms: number) => string): string {
  const used = w.used_percent === null ? "use unknown" : `${Math.round(w.used_percent)} % used`;
  const reset = w.resets_at ? `, resets ${when(Date.parse(w.resets_at))}` : "";
  return `${w.window} ${used}${reset}`;
}

const times = (n: number) => (n === 1 ? "once" : `${n} times`);
const name = (title: string | null) => title?.trim() || "Untitled conversation";
const open = (n: number | null) => (n === null ? "" : ` (/open ${n})`);

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** "Mon 07:30" in the owner's zone (a brief covers about a day, so the weekday is enough). */
function clock(ms: number, timeZone: string): string {
  const style = { weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" } as const;
  try {
    return new Intl.DateTimeFormat("en-GB", { ...style, timeZone }).format(new Date(ms));
  } catch {
    return `${new Intl.DateTimeFormat("en-GB", { ...style, timeZone: "UTC" }).format(new Date(ms))} UTC`;
  }
}
