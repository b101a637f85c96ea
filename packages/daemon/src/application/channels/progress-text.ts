// What the phone sees while a turn runs and when it ends: plain text, no markup, so an edit
// can never be refused for bad HTML. Pure functions; the relay decides when to send them.

/** The most tool lines a progress message lists (the newest), and the answer preview it keeps. */
const MAX_TOOL_LINES = 8;
const PREVIEW_CHARS = 600;
const INPUT_CHARS = 60;

export interface ToolLine {
  readonly id: string;
  readonly name: string;
  readonly summary: string;
  state: "running" | "ok" | "error";
}

export interface ProgressState {
  readonly startedAt: number;
  readonly steps: number;
  readonly tools: readonly ToolLine[];
  /** The answer text since the last tool call. */
  readonly text: string;
  /** Set while the agent retries its model call ("Retrying — attempt 3 of 6: connection refused"), until its next output. */
  readonly retrying?: string | null;
}

/** "⏳ Working · 2m 14s · 7 steps" (or "🔁 Retrying — attempt 3 of 6: …" while it retries), the tool lines, then the newest answer text. */
export function progressText(state: ProgressState, now: number): string {
  const head = `${state.retrying ? `🔁 ${state.retrying}` : "⏳ Working"} · ${duration(now - state.startedAt)}${state.steps ? ` · ${state.steps} step${state.steps === 1 ? "" : "s"}` : ""}`;
  const lines = [head];
  const shown = state.tools.slice(-MAX_TOOL_LINES);
  if (state.tools.length > shown.length) lines.push(`… ${state.tools.length - shown.length} earlier`);
  for (const t of shown) lines.push(`${t.state === "running" ? "⏳" : t.state === "ok" ? "✔️" : "✖️"} ${t.name}${t.summary ? ` · ${t.summary}` : ""}`);
  const text = state.text.trim();
  if (text) lines.push("", text.length > PREVIEW_CHARS ? `…${text.slice(-PREVIEW_CHARS)}` : text);
  return lines.join("\n");
}

/** Whole seconds under a minute, then minutes and seconds: what a status line shows. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

/** A tool call's input in a few words: the field a person would look at, else the first string. */
export function toolSummary(input: unknown): string {
  if (typeof input === "string") return clip(input);
  if (!input || typeof input !== "object") return "";
  const o = input as Record<string, unknown>;
  for (const key of ["command", "file_path", "path", "pattern", "query", "url", "description", "prompt"]) {
    if (typeof o[key] === "string" && o[key]) return clip(o[key]);
  }
  const first = Object.values(o).find((v) => typeof v === "string" && v);
  return typeof first === "string" ? clip(first) : "";
}

function clip(s: string): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > INPUT_CHARS ? `${one.slice(0, INPUT_CHARS - 1)}…` : one;
}

/** The last line of a stopped or failed turn: what happened and why. */
export function endLine(outcome: { kind: "stopped"; queued: number } | { kind: "failed"; message: string }, elapsedMs: number): string {
  if (outcome.kind === "stopped") {
    return `⏹ Stopped after ${duration(elapsedMs)}; the partial reply is kept.${outcome.queued ? ` ${outcome.queued} queued message${outcome.queued === 1 ? " waits" : "s wait"}: send a message to resume.` : ""}`;
  }
  return `⚠️ Failed after ${duration(elapsedMs)}: ${outcome.message}`;
}

/**
 * What a chat hears after a restart that cut off its reply or held its queue. A queue parked
 * on a plan limit (re-armed at start) waits for its reset, not for a message: `holdLabel` says until when.
 */
export function restartNotice(cutOff: boolean, queued: number, holdLabel: string | null = null): string {
  const parts = [cutOff ? "⚠️ Coffer restarted while replying; what was written so far is kept in the conversation." : "Coffer restarted."];
  const waiting = `${queued} queued message${queued === 1 ? " waits" : "s wait"}`;
  if (holdLabel) parts.push(`⏸ ${holdLabel}${queued ? `; ${waiting} for it` : ""}.`);
  else if (queued) parts.push(`${waiting}: send a message to resume.`);
  return parts.join(" ");
}
