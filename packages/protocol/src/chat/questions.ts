import { z } from "zod";

/** One choice the agent offers; the owner answers with its label. */
export const QuestionOption = z.object({
  label: z.string(),
  description: z.string().describe("What choosing it means; may be empty."),
});
export type QuestionOption = z.infer<typeof QuestionOption>;

export const Question = z.object({
  header: z.string().describe("A short tag for the question (may be empty)."),
  text: z.string(),
  options: z.array(QuestionOption),
  multi_select: z.boolean(),
  allow_free_text: z.boolean().describe("The owner may type an answer of their own (alone or besides the options)."),
  optional: z
    .boolean()
    .optional()
    .describe("The owner may leave it unanswered (no option, no text): a field an MCP form does not list as required. Absent means an answer is required."),
});
export type Question = z.infer<typeof Question>;

/** The owner's answer to one question: chosen labels, and optional own words. */
export const QuestionAnswer = z.object({
  selected: z.array(z.string()).max(64),
  text: z.string().max(16_384).optional(),
});
export type QuestionAnswer = z.infer<typeof QuestionAnswer>;

/** The agent asks the owner and waits (the turn shows "waiting for you"). Replayed to late subscribers. */
export const QuestionEvent = z.object({
  type: z.literal("question"),
  question_id: z.string(),
  questions: z.array(Question).min(1),
  // The agent's own tool call that asks (Claude's AskUserQuestion): shown as the question, not as a tool card.
  tool_use_id: z.string().nullable().optional(),
});
export type QuestionEvent = z.infer<typeof QuestionEvent>;

/** The question is closed: answered (answers, by) or cancelled (answers null: stop, timeout, turn ended). */
export const QuestionAnsweredEvent = z.object({
  type: z.literal("question_answered"),
  question_id: z.string(),
  answers: z.array(QuestionAnswer).nullable(),
  by: z.string().optional().describe("The surface that answered (web, cli, telegram…), when it said."),
});
export type QuestionAnsweredEvent = z.infer<typeof QuestionAnsweredEvent>;

export const AnswerQuestionRequest = z.object({
  answers: z.array(QuestionAnswer).min(1).max(16).describe("One entry per question, in the order asked."),
  by: z.string().max(32).optional(),
});
export type AnswerQuestionRequest = z.infer<typeof AnswerQuestionRequest>;

export const AskedQuestionOut = z.object({
  question_id: z.string(),
  questions: z.array(Question),
  state: z.enum(["open", "answered", "cancelled"]),
  answers: z.array(QuestionAnswer).nullable(),
  by: z.string().nullable(),
});
export type AskedQuestionOut = z.infer<typeof AskedQuestionOut>;

export const QuestionListOut = z.object({
  questions: z.array(AskedQuestionOut).describe("The latest turn's questions, oldest first (kept in memory until the next turn)."),
});
export type QuestionListOut = z.infer<typeof QuestionListOut>;

/** One open question, wherever it was asked (GET /chat/questions: `chat watch`, the phone's /status). */
export const OpenQuestionOut = z.object({
  conversation_id: z.string(),
  title: z.string().nullable(),
  question_id: z.string(),
  questions: z.array(Question),
  asked_at: z.number().int().describe("When the agent asked (epoch ms): escalation is timed from it."),
});
export type OpenQuestionOut = z.infer<typeof OpenQuestionOut>;

export const OpenQuestionListOut = z.object({
  questions: z.array(OpenQuestionOut).describe("Every question still waiting for the owner, oldest first."),
});
export type OpenQuestionListOut = z.infer<typeof OpenQuestionListOut>;

/**
 * A question the agent asked during a turn, kept in the reply where it was asked (folded from
 * `question` and `question_answered` by foldContent), so the thread still shows what was asked,
 * what was answered and from where, live, after a reload and in `coffer chat show`.
 */
export const QuestionBlock = z.object({
  type: z.literal("question"),
  question_id: z.string(),
  questions: z.array(Question),
  state: z.enum(["open", "answered", "cancelled"]),
  answers: z.array(QuestionAnswer).nullable(),
  /** The surface the winning answer came from, as the daemon verified it (web, cli, telegram). */
  by: z.string().nullable(),
  tool_use_id: z.string().nullable(),
});
export type QuestionBlock = z.infer<typeof QuestionBlock>;

const SURFACES: Record<string, string> = { web: "the page", cli: "the CLI", telegram: "Telegram", discord: "Discord", daemon: "Coffer" };

/** "the page", "the CLI", "Telegram": a question's `by` in words, the same on every surface. */
export function surfaceName(by: string | null | undefined): string {
  return by ? (SURFACES[by] ?? by) : "another screen";
}

/** One answer as a person reads it: the chosen labels, then the owner's own words in quotes. */
export function answerText(answer: QuestionAnswer): string {
  const words = answer.text?.trim();
  const parts = [...answer.selected, ...(words ? [`“${words}”`] : [])];
  return parts.length ? parts.join(", ") : "(left empty)";
}

/** "Answered from Telegram: Blue" — what a surface whose answer lost the race is told. */
export function answeredFromText(answers: readonly QuestionAnswer[], by: string | null | undefined): string {
  return `Answered from ${surfaceName(by)}: ${answers.map(answerText).join(" | ")}`;
}
