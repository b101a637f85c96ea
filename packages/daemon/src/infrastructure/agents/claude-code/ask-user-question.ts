import type { CanUseTool, PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import type { Question, QuestionAnswer } from "@coffer/protocol";

/** How a session reaches the owner during its current turn (AdapterServices.ask). */
export type Ask = (questions: readonly Question[], toolUseId?: string) => Promise<QuestionAnswer[]>;

interface AskInput {
  questions?: { question?: unknown; header?: unknown; options?: unknown; multiSelect?: unknown }[];
}

/**
 * The SDK routes AskUserQuestion through canUseTool even under bypassPermissions (the tool
 * requires user interaction), and without a canUseTool the CLI disables the tool for the
 * session. Every other tool is allowed as bypassPermissions would. The answer goes back the
 * way the SDK documents: allow with the input plus `answers` keyed by question text
 * (labels comma-separated; the owner's own words as the answer or after the labels).
 */
export function canUseTool(current: () => Ask | null): CanUseTool {
  return async (toolName, input, { signal, toolUseID }): Promise<PermissionResult> => {
    if (toolName !== "AskUserQuestion") return { behavior: "allow", updatedInput: input };
    const ask = current();
    const questions = toQuestions(input as AskInput);
    if (!ask || questions.length === 0) return { behavior: "deny", message: "No one can answer questions in this session." };
    try {
      // The tool call's id lets the thread show the question in the tool card's place.
      const answers = await Promise.race([ask(questions, toolUseID), abortedBy(signal)]);
      return { behavior: "allow", updatedInput: { ...input, answers: toAnswerMap(questions, answers) } };
    } catch {
      return { behavior: "deny", message: "The owner stopped the turn before answering." };
    }
  };
}

export function toQuestions(input: AskInput): Question[] {
  return (input.questions ?? []).map((q) => ({
    header: typeof q.header === "string" ? q.header : "",
    text: typeof q.question === "string" ? q.question : "",
    options: (Array.isArray(q.options) ? q.options : []).map((o: { label?: unknown; description?: unknown }) => ({
      label: typeof o?.label === "string" ? o.label : "",
      description: typeof o?.description === "string" ? o.description : "",
    })),
    multi_select: q.multiSelect === true,
    // The CLI's own prompt always offers "Other" for typed text.
    allow_free_text: true,
  }));
}

export function toAnswerMap(questions: readonly Question[], answers: readonly QuestionAnswer[]): Record<string, string> {
  const map: Record<string, string> = {};
  questions.forEach((q, i) => {
    const a = answers[i];
    if (!a) return;
    map[q.text] = [...a.selected, ...(a.text?.trim() ? [a.text.trim()] : [])].join(", ");
  });
  return map;
}

function abortedBy(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(new Error("aborted"));
    else signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
  });
}
