/**
 * Codex's `item/tool/requestUserInput` (the model's request_user_input tool) answered by the
 * owner through AdapterServices.ask. Shapes from the pinned app-server's generated types
 * (`codex app-server generate-ts`: ToolRequestUserInputParams / ToolRequestUserInputResponse).
 */
import type { Question, QuestionAnswer } from "@coffer/protocol";

interface CodexQuestion {
  id?: unknown;
  header?: unknown;
  question?: unknown;
  isOther?: unknown;
  options?: { label?: unknown; description?: unknown }[] | null;
}

export interface UserInputParams {
  threadId?: unknown;
  questions?: CodexQuestion[];
}

/** A thread listener that can put the agent's questions to the owner of its running turn. */
export type AskOwner = (questions: readonly Question[]) => Promise<QuestionAnswer[]>;

export function toQuestions(params: UserInputParams): Question[] {
  return (params.questions ?? []).map((q) => ({
    header: str(q.header),
    text: str(q.question),
    options: (q.options ?? []).map((o) => ({ label: str(o.label), description: str(o.description) })),
    multi_select: false,
    // Codex's own client adds a free-form "Other" to every question with options, and a
    // question without options is free text only.
    allow_free_text: true,
  }));
}

/** `{answers: {<question id>: {answers: [label or text…]}}}` */
export function toResponse(params: UserInputParams, answers: readonly QuestionAnswer[]): { answers: Record<string, { answers: string[] }> } {
  const out: Record<string, { answers: string[] }> = {};
  (params.questions ?? []).forEach((q, i) => {
    const a = answers[i];
    if (!a) return;
    out[str(q.id) || String(i)] = { answers: [...a.selected, ...(a.text?.trim() ? [a.text.trim()] : [])] };
  });
  return { answers: out };
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}
