import type { Question, QuestionAnswer } from "@coffer/protocol";
import { pickCode, pickOf, SKIP_OPTION } from "./chat-buttons.js";

// What the owner tapped so far on a question message that answers with Send: a multi-select's
// options, or each of several questions' (a single choice among them behaves as radio buttons;
// an optional one has Skip). Picks are `pickCode`s; these rules are the one place they change.

/** The picks after a tap on `code`. */
export function applyPick(questions: readonly Question[], picks: ReadonlySet<number>, code: number): Set<number> {
  const { question, option } = pickOf(code);
  const q = questions[question];
  const next = new Set(picks);
  if (!q) return next;
  const ofQuestion = (c: number) => pickOf(c).question === question;
  if (next.has(code)) {
    next.delete(code);
    return next;
  }
  // Skip and a single choice each replace whatever else the question had; a multi-select's option only replaces Skip.
  const exclusive = option === SKIP_OPTION || !q.multi_select;
  for (const c of [...next]) if (ofQuestion(c) && (exclusive || pickOf(c).option === SKIP_OPTION)) next.delete(c);
  next.add(code);
  return next;
}

/** The labels picked for question `question`, "skip" when it was skipped, [] when nothing. */
export function picksFor(questions: readonly Question[], picks: ReadonlySet<number>, question: number): string[] | "skip" {
  if (picks.has(pickCode(question, SKIP_OPTION))) return "skip";
  return (questions[question]?.options ?? []).filter((_, o) => picks.has(pickCode(question, o))).map((o) => o.label);
}

/** The answers the picks make, or the first question (0-based) still needing one. An optional question left alone is skipped. */
export function answersFromPicks(questions: readonly Question[], picks: ReadonlySet<number>): { answers: QuestionAnswer[] } | { missing: number } {
  const answers: QuestionAnswer[] = [];
  for (const [i, q] of questions.entries()) {
    const picked = picksFor(questions, picks, i);
    if (picked === "skip" || (!picked.length && q.optional)) answers.push({ selected: [] });
    else if (picked.length) answers.push({ selected: picked });
    else return { missing: i };
  }
  return { answers };
}

/** How many questions have an answer in the picks (a skip counts). */
export function answeredCount(questions: readonly Question[], picks: ReadonlySet<number>): number {
  return questions.filter((_, i) => {
    const picked = picksFor(questions, picks, i);
    return picked === "skip" || picked.length > 0;
  }).length;
}
