import { answerText, humanSize, humanToolName, surfaceName, toSegments, type AttachmentOut, type ConversationOut, type MessageOut, type QuestionBlock, type SearchMatch, type Segment } from "@coffer/protocol";
import { cmd } from "./hints.js";

/**
 * Text from the daemon (memory facts agents wrote, replies, titles, file names) is untrusted
 * on a terminal: an escape sequence in it could set the clipboard (OSC 52), clear the screen,
 * retitle the window or overprint a line. Everything printed goes through `clean`, which keeps
 * newline and tab and removes every other C0 control, DEL and the C1 controls, taking whole
 * ESC sequences (CSI, OSC, DCS…) with it where they are complete. An unterminated one (or one
 * split across two streamed deltas) still loses its ESC, so what is left prints as plain text.
 * It also removes the bidirectional controls (U+202A–U+202E embeddings and overrides, U+2066–
 * U+2069 isolates, U+200E/U+200F marks, U+061C): an override makes a line read backwards from
 * how it is stored ("Trojan Source"), so a reply or title could show a different command or id
 * than the one it holds.
 */
// eslint-disable-next-line no-control-regex
const ESCAPE_SEQUENCE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)|[@-Z\\-_]|[ -/]*[0-~])/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function clean(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, "").replace(CONTROL, "").replace(BIDI, "");
}

/** Every line the CLI prints to stdout goes through here. */
export function print(text: string): void {
  process.stdout.write(clean(text));
}

/** …and to stderr. */
export function printErr(text: string): void {
  process.stderr.write(clean(text));
}

/**
 * The one exception to `clean`: art the CLI drew itself (a QR code's colour escapes), never
 * text from the daemon. Data from the daemon reaches it only encoded as the code's modules.
 */
export function printTerminalArt(art: string): void {
  process.stdout.write(art.endsWith("\n") ? art : `${art}\n`);
}

export function printJson(value: unknown): void {
  // JSON.stringify escapes every control character; the bidirectional ones it leaves as they are,
  // so they are escaped here (the same JSON value, but it no longer reorders the terminal's line).
  const json = JSON.stringify(value, null, 2).replace(BIDI, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  process.stdout.write(`${json}\n`);
}

function pad(s: string, n: number): string {
  return s.length >= n ? `${s.slice(0, n - 1)}…` : s.padEnd(n);
}

/** `chat ls`'s column names, aligned with conversationLine (ids are 32 characters). */
export const CONVERSATION_HEADER = `${"ID".padEnd(32)}  ${"AGENT".padEnd(12)} ${"TITLE".padEnd(48)} UPDATED (UTC)`;

export function conversationLine(c: ConversationOut): string {
  const flags = [c.running ? "running" : "", c.archived_at ? "archived" : "", c.channel_binding ? `via ${c.channel_binding.channel}` : ""]
    .filter(Boolean)
    .join(", ");
  return `${c.id}  ${pad(c.agent_key, 12)} ${pad(c.title, 48)} ${c.updated_at.slice(0, 16).replace("T", " ")}${flags ? `  [${flags}]` : ""}`;
}

/** A search hit's snippet under its row: the matched words between « and » (no colour escapes: output is cleaned). */
export function matchLine(m: SearchMatch): string {
  let out = "";
  let at = 0;
  for (const [start, end] of m.highlights) {
    if (start < at) continue;
    out += `${m.snippet.slice(at, start)}«${m.snippet.slice(start, end)}»`;
    at = end;
  }
  return `    ${m.message_id ? "↳" : "↳ title:"} ${out}${m.snippet.slice(at)}`;
}

/** How a reply ended, when not plainly: stopped by the owner, or failed (with why). */
function outcome(m: MessageOut): string | null {
  if (m.status === "failed") return `failed${m.error ? `: ${m.error.code}: ${m.error.message}` : ""}`;
  if (m.stop_reason === "interrupted") return "stopped (the reply above is partial)";
  return null;
}

/**
 * One line per tool call with its outcome — the page's one card (protocol's toSegments): done
 * ✓, failed ✗ with why, still running ⚙, or, with no result in a reply that ended, what the
 * page says (stopped or failed).
 */
function toolLine(s: Extract<Segment, { kind: "tool" }>, m: MessageOut): string {
  const input = s.use.tool_input === null ? "" : ` ${summarise(s.use.tool_input)}`;
  const name = humanToolName(s.use.tool_name);
  if (s.result) return `  ${s.result.error ? "✗" : "✓"} ${name}${input}${s.result.error ? `: ${s.result.error}` : ""}`;
  if (m.status === "streaming") return `  ⚙ ${name}${input} · running`;
  return m.stop_reason === "interrupted" ? `  ⏹ ${name}${input} · stopped` : `  ✗ ${name}${input} · no result`;
}

export function messageBlock(m: MessageOut): string {
  // Worded as the live transcript (turn-printer) words a steer, so watching and showing agree.
  // 🎤: the text is a voice note's transcript (the page marks it the same way).
  const head = m.role === "user" ? `you${m.voice ? " · 🎤 voice note" : ""}${m.schedule ? ` · ⏰ ${m.schedule.name}` : ""}${m.steered ? " (steered into the running turn)" : ""}` : `assistant${m.model_id ? ` (${m.model_id})` : ""}`;
  const ended = m.role === "assistant" ? outcome(m) : null;
  const mark = ended ? ` · ${m.status === "failed" ? "✗ failed" : "⏹ stopped"}` : m.status !== "complete" ? ` · ${m.status}` : "";
  const lines = [`── ${head} · #${m.seq}${mark}`];
  for (const s of toSegments(m.content)) lines.push(...(s.kind === "text" ? [s.text] : s.kind === "notice" ? [`  ⓘ ${s.block.text}`] : s.kind === "question" ? questionLines(s.block) : [toolLine(s, m)]));
  for (const a of m.attachments ?? []) lines.push(attachmentLine(a));
  if (m.role === "assistant" && (m.prompt_tokens !== null || m.completion_tokens !== null)) {
    lines.push(`  tokens: ${m.prompt_tokens ?? "?"} in / ${m.completion_tokens ?? "?"} out`);
  }
  if (ended) lines.push(`  ${m.status === "failed" ? "✗" : "⏹"} ${ended}`);
  return lines.join("\n");
}

/** A file on a message (the owner's or one the agent shared): its name, size, how to get it and the agent's line for it. */
export function attachmentLine(a: AttachmentOut): string {
  return `  📎 ${a.name} (${humanSize(a.size)}) · ${cmd("attachment get")} ${a.id}${a.caption ? ` — ${a.caption}` : ""}`;
}

/** An agent's question as the thread keeps it: what was asked, and what was answered from where. */
export function questionLines(b: QuestionBlock): string[] {
  return b.questions.flatMap((q, i) => {
    const asked = `  ❓ ${q.header ? `[${q.header}] ` : ""}${q.text}`;
    const answer = b.answers?.[i];
    if (b.state === "answered") return [asked, `     → ${answer ? answerText(answer) : "(left empty)"} · answered from ${surfaceName(b.by)}`];
    return [asked, b.state === "cancelled" ? "     → not answered (the turn stopped first)" : "     → waiting for your answer"];
  });
}

export function summarise(value: unknown, max = 80): string {
  // Cleaned before it is cut, so escapes neither count towards the width nor get cut in half.
  const text = clean(typeof value === "string" ? value : JSON.stringify(value ?? {}));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
