import type { AskedQuestionOut, ChatEvent, Question, QuestionAnswer } from "@coffer/protocol";
import { AnswerInvalid, QuestionAlreadyAnswered, QuestionNotFound } from "../../domain/question-errors.js";
import type { IdGenerator } from "../ports.js";

interface Asked {
  readonly questions: readonly Question[];
  /** When the agent asked (epoch ms): the owner's escalation is timed from it. */
  readonly askedAt: number;
  state: "open" | "answered" | "cancelled";
  answers: readonly QuestionAnswer[] | null;
  by: string | undefined;
  settle: ((answers: readonly QuestionAnswer[] | null) => void) | null;
}

/** Why an adapter's ask() rejected: the turn stopped while the owner had not answered. */
export class QuestionCancelled extends Error {
  constructor(readonly questionId: string) {
    super("the question was cancelled: the turn stopped before the owner answered");
    this.name = "QuestionCancelled";
  }
}

/**
 * The questions one running turn has asked the owner. They live in memory with the turn: a
 * restart fails the turn (daemon_restart), so no question can outlive it as "open". Closed
 * questions are kept until the turn ends so a late second answer learns who won.
 */
export class TurnQuestions {
  private readonly asked = new Map<string, Asked>();
  private open = 0;
  /** The runner's hook: a question closed, so agent silence is measured from now. */
  onSettle: (() => void) | null = null;

  constructor(
    private readonly conversationId: string,
    private readonly publish: (event: ChatEvent) => void,
    private readonly ids: IdGenerator,
    private readonly now: () => number = () => 0,
  ) {}

  /** The turn is waiting for the owner, not for the agent. */
  get waiting(): boolean {
    return this.open > 0;
  }

  /** `toolUseId`: the agent's own tool call that asks, when it is one (the thread shows the question in its place). */
  ask(questions: readonly Question[], signal: AbortSignal, toolUseId?: string): Promise<QuestionAnswer[]> {
    const id = this.ids();
    if (signal.aborted) return Promise.reject(new QuestionCancelled(id));
    return new Promise<QuestionAnswer[]>((resolve, reject) => {
      const entry: Asked = { questions, askedAt: this.now(), state: "open", answers: null, by: undefined, settle: null };
      const onAbort = (): void => this.close(id, entry, null, undefined);
      entry.settle = (answers) => {
        signal.removeEventListener("abort", onAbort);
        if (answers) resolve([...answers]);
        else reject(new QuestionCancelled(id));
      };
      this.asked.set(id, entry);
      this.open += 1;
      signal.addEventListener("abort", onAbort, { once: true });
      this.publish({ type: "question", question_id: id, questions: [...questions], ...(toolUseId ? { tool_use_id: toolUseId } : {}) });
    });
  }

  /** First answer wins; a later one gets QuestionAlreadyAnswered carrying the winner. */
  answer(questionId: string, answers: readonly QuestionAnswer[], by?: string): void {
    const entry = this.asked.get(questionId);
    if (!entry) throw new QuestionNotFound(this.conversationId, questionId);
    if (entry.state !== "open") throw new QuestionAlreadyAnswered(questionId, entry.answers, entry.by);
    validateAnswers(questionId, entry.questions, answers);
    this.close(questionId, entry, answers, by);
  }

  list(): AskedQuestionOut[] {
    return [...this.asked].map(([id, e]) => ({
      question_id: id,
      questions: [...e.questions],
      state: e.state,
      answers: e.answers ? [...e.answers] : null,
      by: e.by ?? null,
    }));
  }

  /** The questions still waiting for the owner, oldest first, with when each was asked. */
  openNow(): { readonly questionId: string; readonly questions: readonly Question[]; readonly askedAt: number }[] {
    return [...this.asked].flatMap(([questionId, e]) => (e.state === "open" ? [{ questionId, questions: e.questions, askedAt: e.askedAt }] : []));
  }

  /** When a question was asked (null for one this turn never asked). */
  askedAt(questionId: string): number | null {
    return this.asked.get(questionId)?.askedAt ?? null;
  }

  /** The turn is over: nothing stays open. */
  cancelAll(): void {
    for (const [id, entry] of this.asked) if (entry.state === "open") this.close(id, entry, null, undefined);
  }

  private close(id: string, entry: Asked, answers: readonly QuestionAnswer[] | null, by: string | undefined): void {
    if (entry.state !== "open") return;
    entry.state = answers ? "answered" : "cancelled";
    entry.answers = answers;
    entry.by = by;
    this.open -= 1;
    this.publish({ type: "question_answered", question_id: id, answers: answers ? [...answers] : null, ...(by ? { by } : {}) });
    entry.settle?.(answers);
    entry.settle = null;
    this.onSettle?.();
  }
}

function validateAnswers(id: string, questions: readonly Question[], answers: readonly QuestionAnswer[]): void {
  if (answers.length !== questions.length) {
    throw new AnswerInvalid(`expected ${questions.length} answer(s), one per question in order; got ${answers.length}`, id);
  }
  questions.forEach((q, i) => {
    const a = answers[i]!;
    const labels = new Set(q.options.map((o) => o.label));
    const unknown = a.selected.find((label) => !labels.has(label));
    if (unknown !== undefined) throw new AnswerInvalid(`answer ${i + 1}: "${unknown}" is not one of the options`, id);
    if (!q.multi_select && a.selected.length > 1) throw new AnswerInvalid(`answer ${i + 1}: this question takes one option`, id);
    const text = a.text?.trim() ?? "";
    if (text && !q.allow_free_text) throw new AnswerInvalid(`answer ${i + 1}: this question takes no free text`, id);
    // An optional question (an MCP form's field outside its `required` list) may be left empty; any other needs an answer.
    if (a.selected.length === 0 && !text && !q.optional) {
      throw new AnswerInvalid(`answer ${i + 1}${q.header ? ` (${q.header})` : ""} is required: choose an option or write an answer`, id);
    }
  });
}
