import { answerText, humanToolName, surfaceName, type ConversationOut, type MessageOut, type QuestionBlock, type SearchMatch } from "@coffer/protocol";

/**
 * Text from the daemon (memory facts agents wrote, replies, titles, file names) is untrusted
 * on a terminal: an escape sequence in it could set the clipboard (OSC 52), clear the screen,
 * retitle the window or overprint a line. Everything printed goes through `clean`, which keeps
 * newline and tab and removes every other C0 control, DEL and the C1 controls, taking whole
 * ESC sequences (CSI, OSC, DCS…) with it where they are complete. An unterminated one (or one
 * split across two streamed deltas) still loses its ESC, so what is left prints as plain text.
 */
// eslint-disable-next-line no-control-regex
const ESCAPE_SEQUENCE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)|[@-Z\\-_]|[ -/]*[0-~])/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

export function clean(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, "").replace(CONTROL, "");
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
  // JSON.stringify escapes every control character, so JSON output is already safe.
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
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

export function messageBlock(m: MessageOut): string {
  const head = m.role === "user" ? "you" : `assistant${m.model_id ? ` (${m.model_id})` : ""}`;
  const ended = m.role === "assistant" ? outcome(m) : null;
  const mark = ended ? ` · ${m.status === "failed" ? "✗ failed" : "⏹ stopped"}` : m.status !== "complete" ? ` · ${m.status}` : "";
  const lines = [`── ${head} · #${m.seq}${mark}`];
  for (const b of m.content) {
    if (b.type === "text") lines.push(b.text);
    else if (b.type === "tool_use") lines.push(`  ⚙ ${humanToolName(b.tool_name)} ${summarise(b.tool_input)}`);
    else if (b.type === "tool_result") lines.push(`  ${b.error ? "✗" : "✓"} ${humanToolName(b.tool_name)}${b.error ? `: ${b.error}` : ""}`);
    else lines.push(...questionLines(b));
  }
  if (m.role === "assistant" && (m.prompt_tokens !== null || m.completion_tokens !== null)) {
    lines.push(`  tokens: ${m.prompt_tokens ?? "?"} in / ${m.completion_tokens ?? "?"} out`);
  }
  if (ended) lines.push(`  ${m.status === "failed" ? "✗" : "⏹"} ${ended}`);
  return lines.join("\n");
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
