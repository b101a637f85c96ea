import type { Question, QuestionAnswer } from "@coffer/protocol";
import type { MessageButton } from "./ports.js";

// An agent's question on the phone: numbered options as plain text, and the owner's reply
// (numbers, or own words where the question allows them) read back into answers.

/** The line that leaves an optional question unanswered (an MCP form's field outside its required list). */
const SKIP = "-";

/** Button data: `qa:<question id>:<option index>` (Telegram allows 64 bytes). */
const BUTTON = /^qa:(.+):(\d+)$/;
const MAX_BUTTON_DATA = 64;

/**
 * One button per option (one a row, so long labels stay readable) when the message asks one
 * single-choice question: a tap answers it. Null otherwise (numbers and own words, as typed).
 */
export function questionButtons(questionId: string, questions: readonly Question[]): MessageButton[][] | null {
  const q = questions.length === 1 ? questions[0]! : null;
  if (!q || q.multi_select || !q.options.length) return null;
  const rows = q.options.map((o, n) => [{ text: o.label, data: `qa:${questionId}:${n}` }]);
  return rows.every(([b]) => Buffer.byteLength(b!.data) <= MAX_BUTTON_DATA) ? rows : null;
}

/** A tapped button's question and option, or null for data that is not an answer button. */
export function parseAnswerButton(data: string): { questionId: string; option: number } | null {
  const m = BUTTON.exec(data);
  return m ? { questionId: m[1]!, option: Number(m[2]) } : null;
}

/** The question as one chat message (`tappable`: its options come as buttons too). */
export function questionText(questions: readonly Question[], tappable = false): string {
  const one = questions.length === 1;
  const parts = questions.map((q, i) => {
    const head = `${one ? "❓ " : `Q${i + 1}. `}${q.header ? `[${q.header}] ` : ""}${q.text}${q.optional ? ` (optional: ${SKIP} skips it)` : ""}`;
    const options = q.options.map((o, n) => `${n + 1}. ${o.label}${o.description ? ` — ${o.description}` : ""}`);
    return [head, ...options].join("\n");
  });
  const how = one ? `${tappable ? "Tap an option, or r" : "R"}${replyHint(questions[0]!).slice(1)}` : "Reply with one line per question, in order (a number, or several like 1,3 where allowed).";
  return [one ? "" : `❓ The agent asks ${questions.length} questions:`, ...parts, how].filter(Boolean).join("\n\n");
}

function replyHint(q: Question): string {
  const numbers = q.options.length ? `a number${q.multi_select ? " (or several, like 1,3)" : ""}` : "";
  const words = q.allow_free_text ? "your own words" : "";
  return `Reply with ${[numbers, words].filter(Boolean).join(", or ")}.`;
}

/** The owner's reply as answers, or null when it does not answer every question. */
export function parseQuestionReply(questions: readonly Question[], reply: string): QuestionAnswer[] | null {
  const lines = questions.length === 1 ? [reply.trim()] : reply.split("\n").map((l) => l.trim()).filter(Boolean);
  if (lines.length !== questions.length) return null;
  const answers: QuestionAnswer[] = [];
  for (const [i, q] of questions.entries()) {
    const line = lines[i]!;
    if (q.optional && line === SKIP) {
      answers.push({ selected: [] });
    } else if (/^\d+(\s*[,\s]\s*\d+)*$/.test(line) && q.options.length) {
      const picked = [...new Set(line.split(/[,\s]+/).map(Number))];
      if (picked.some((n) => n < 1 || n > q.options.length) || (!q.multi_select && picked.length > 1)) return null;
      answers.push({ selected: picked.map((n) => q.options[n - 1]!.label) });
    } else if (q.allow_free_text && line) {
      answers.push({ selected: [], text: line });
    } else {
      return null;
    }
  }
  return answers;
}
