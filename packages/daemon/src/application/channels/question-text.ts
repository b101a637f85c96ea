import { answeredFromText, type Question, type QuestionAnswer } from "@coffer/protocol";
import { buttonData, dataFits, layout, MAX_PER_ROW, MAX_ROWS, pickCode, SKIP_OPTION } from "./chat-buttons.js";
import { answeredCount, picksFor } from "./question-picks.js";
import type { EditedMessage, MessageButton } from "./ports.js";

// An agent's question on the phone: numbered options as plain text, and the owner's reply
// (numbers, or own words where the question allows them) read back into answers.

/** The line that leaves an optional question unanswered (an MCP form's field outside its required list). */
const SKIP = "-";

/**
 * The buttons of a question message. One single choice: one button per option (a tap answers),
 * plus Skip when it is optional. One multi-select: toggles (✓ on the picked ones) and a Send row.
 * Several questions: each question's options as toggles labelled with its number (a single
 * choice among them picks one; an optional one has Skip), then Send. Null for a question with no
 * options (own words only) and when the buttons do not fit the platforms' limits: numbers and
 * own words still answer, typed.
 */
export function questionButtons(questionId: string, questions: readonly Question[], picks: ReadonlySet<number> = new Set()): MessageButton[][] | null {
  if (!questions.length || questions.some((q) => !q.options.length)) return null;
  const rows = questions.length === 1 ? oneQuestionButtons(questionId, questions[0]!, picks) : severalQuestionsButtons(questionId, questions, picks);
  return rows && dataFits(rows) ? rows : null;
}

function oneQuestionButtons(questionId: string, q: Question, picks: ReadonlySet<number>): MessageButton[][] | null {
  if (!q.multi_select) {
    const options = q.options.map((o, option) => ({ text: o.label, data: buttonData({ kind: "answer", questionId, option }) }));
    const skip = q.optional ? [{ text: "Skip", data: buttonData({ kind: "answer", questionId, option: SKIP_OPTION }) }] : [];
    return layout([...options, ...skip], MAX_ROWS);
  }
  const toggles = layout(q.options.map((o, option) => ({ text: `${picks.has(option) ? "✓ " : ""}${o.label}`, data: buttonData({ kind: "toggle", questionId, option }) })), MAX_ROWS - 1);
  return toggles && [...toggles, [{ text: picks.size ? `Send (${picks.size})` : "Send", data: buttonData({ kind: "send", questionId }) }]];
}

/** Each question's toggles packed in rows of up to five, in order; the last row is Send with how many are answered. */
function severalQuestionsButtons(questionId: string, questions: readonly Question[], picks: ReadonlySet<number>): MessageButton[][] | null {
  const rows: MessageButton[][] = [];
  for (const [i, q] of questions.entries()) {
    const choices = [...q.options.map((o, option) => ({ option, label: o.label })), ...(q.optional ? [{ option: SKIP_OPTION, label: "Skip" }] : [])];
    const toggles = choices.map(({ option, label }) => {
      const code = pickCode(i, option);
      return { text: `${picks.has(code) ? "✓ " : ""}Q${i + 1} · ${label}`, data: buttonData({ kind: "toggle", questionId, option: code }) };
    });
    for (let at = 0; at < toggles.length; at += MAX_PER_ROW) rows.push(toggles.slice(at, at + MAX_PER_ROW));
  }
  if (rows.length > MAX_ROWS - 1) return null;
  return [...rows, [{ text: `Send (${answeredCount(questions, picks)}/${questions.length})`, data: buttonData({ kind: "send", questionId }) }]];
}

/** The question's message as it stands: its text (with the picks so far, for a multi-select) and buttons. */
export function questionMessage(questionId: string, questions: readonly Question[], picks: ReadonlySet<number> = new Set()): EditedMessage {
  const buttons = questionButtons(questionId, questions, picks);
  return { text: questionText(questions, buttons !== null, picks), ...(buttons ? { buttons } : {}) };
}

/** The most characters of an answer a closed question's last line quotes (own words may be long). */
const ANSWER_CHARS = 300;

/**
 * A closed question's message: what was asked, then who answered and what ("☑️ Answered from
 * the page: Yes"; ✅ when it was this surface), or that it closed unanswered. No buttons.
 */
export function closedQuestionText(questions: readonly Question[], answers: readonly QuestionAnswer[] | null, by: string | null, ownSurface: string): string {
  let line: string;
  if (!answers) line = "⏹ Closed without an answer: its turn ended.";
  else {
    const said = answeredFromText(answers, by);
    line = `${by === ownSurface ? "✅" : "☑️"} ${said.length > ANSWER_CHARS ? `${said.slice(0, ANSWER_CHARS - 1)}…` : said}`;
  }
  return [...questionParts(questions), line].join("\n\n");
}

/** The question as one chat message (`tappable`: its options come as buttons too; `picks`: what was tapped so far). */
export function questionText(questions: readonly Question[], tappable = false, picks: ReadonlySet<number> = new Set()): string {
  const one = questions.length === 1;
  const q = questions[0]!;
  const typed = "reply with one line per question, in order (a number, or several like 1,3 where allowed).";
  if (!one) {
    if (!tappable) return [...questionParts(questions), `R${typed.slice(1)}`].join("\n\n");
    const picked = questions.map((_, i) => {
      const p = picksFor(questions, picks, i);
      return `Q${i + 1}: ${p === "skip" ? "skipped" : p.length ? p.join(", ") : "nothing yet"}`;
    });
    return [...questionParts(questions), `Picked: ${picked.join(" · ")}`, `Tap an option for each question, then Send; or ${typed}`].join("\n\n");
  }
  const toggles = tappable && q.multi_select;
  const how = toggles ? `Tap options to pick them, then Send; or r${replyHint(q).slice(1)}` : `${tappable ? "Tap an option, or r" : "R"}${replyHint(q).slice(1)}`;
  const picked = toggles ? [`Picked: ${picks.size ? q.options.filter((_, n) => picks.has(pickCode(0, n))).map((o) => o.label).join(", ") : "nothing yet"}`] : [];
  return [...questionParts(questions), ...picked, how].join("\n\n");
}

/** What is asked, without how to answer: the heading and each question with its numbered options. */
function questionParts(questions: readonly Question[]): string[] {
  const one = questions.length === 1;
  const parts = questions.map((q, i) => {
    const head = `${one ? "❓ " : `Q${i + 1}. `}${q.header ? `[${q.header}] ` : ""}${q.text}${q.optional ? ` (optional: ${SKIP} skips it)` : ""}`;
    const options = q.options.map((o, n) => `${n + 1}. ${o.label}${o.description ? ` — ${o.description}` : ""}`);
    return [head, ...options].join("\n");
  });
  return [...(one ? [] : [`❓ The agent asks ${questions.length} questions:`]), ...parts];
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
