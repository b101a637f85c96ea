/**
 * An MCP server's form elicitation (`mcpServer/elicitation/request`, mode "form") put to the
 * owner as Coffer questions: one question per field of `requestedSchema` (MCP 2025-11-25
 * ElicitRequestFormParams, as the pinned app-server's generated types spell it). Enums become
 * options, booleans Yes/No, strings and numbers free text; the answers become `content`.
 * A field outside the schema's `required` list is an optional question: left empty, it is
 * left out of `content` (JSON Schema: an absent optional property), never sent as "" or 0.
 */
import type { Question, QuestionAnswer } from "@coffer/protocol";

interface Field {
  type?: unknown;
  title?: unknown;
  description?: unknown;
  enum?: unknown;
  enumNames?: unknown;
  oneOf?: unknown;
  items?: { enum?: unknown; anyOf?: unknown };
}

interface FormParams {
  mode?: unknown;
  message?: unknown;
  requestedSchema?: { properties?: Record<string, Field | undefined>; required?: unknown };
}

interface Choice {
  readonly label: string;
  readonly value: string;
}

interface FormField {
  readonly key: string;
  readonly kind: "choice" | "choices" | "boolean" | "string" | "number";
  readonly choices: readonly Choice[];
  readonly question: Question;
}

/** The owner-facing questions for a form, or null when it is not a form we can render. */
export function formQuestions(params: unknown): { questions: Question[]; toContent: (answers: readonly QuestionAnswer[]) => Record<string, unknown> } | null {
  const p = (params ?? {}) as FormParams;
  if (p.mode !== "form" || !p.requestedSchema?.properties) return null;
  const message = typeof p.message === "string" ? p.message : "";
  const required = new Set(Array.isArray(p.requestedSchema.required) ? p.requestedSchema.required.filter((k): k is string => typeof k === "string") : []);
  const fields = Object.entries(p.requestedSchema.properties).flatMap(([key, f]) => (f ? [toField(key, f, message, required.has(key))] : []));
  if (fields.length === 0) return null;
  return {
    questions: fields.map((f) => f.question),
    toContent: (answers) => {
      const content: Record<string, unknown> = {};
      fields.forEach((f, i) => {
        const a = answers[i];
        if (!a) return;
        const value = (label: string) => f.choices.find((c) => c.label === label)?.value ?? label;
        const text = a.text?.trim() ?? "";
        // Left empty: only an optional field may be (the answer's validation saw to that); it stays out.
        if (a.selected.length === 0 && !text) return;
        if (f.kind === "choices") content[f.key] = a.selected.map(value);
        else if (f.kind === "choice") content[f.key] = a.selected[0] !== undefined ? value(a.selected[0]) : text;
        else if (f.kind === "boolean") content[f.key] = a.selected[0] === "Yes";
        else if (f.kind === "number") content[f.key] = Number(text);
        else content[f.key] = text;
      });
      return content;
    },
  };
}

function toField(key: string, f: Field, message: string, required: boolean): FormField {
  const header = typeof f.title === "string" ? f.title : key;
  const text = [message, typeof f.description === "string" ? f.description : ""].filter(Boolean).join(" — ") || header;
  const choices = choicesOf(f);
  const kind: FormField["kind"] =
    f.type === "array" ? "choices" : choices.length ? "choice" : f.type === "boolean" ? "boolean" : f.type === "number" || f.type === "integer" ? "number" : "string";
  const options = kind === "boolean" ? [{ label: "Yes", description: "" }, { label: "No", description: "" }] : choices.map((c) => ({ label: c.label, description: "" }));
  return {
    key,
    kind,
    choices,
    question: { header, text, options, multi_select: kind === "choices", allow_free_text: kind === "string" || kind === "number", ...(required ? {} : { optional: true }) },
  };
}

function choicesOf(f: Field): Choice[] {
  const consts = (list: unknown): Choice[] =>
    Array.isArray(list) ? list.filter((o) => typeof o?.const === "string").map((o) => ({ value: o.const, label: typeof o.title === "string" ? o.title : o.const })) : [];
  const plain = (list: unknown, names?: unknown): Choice[] =>
    Array.isArray(list)
      ? list.filter((v): v is string => typeof v === "string").map((v, i) => ({ value: v, label: Array.isArray(names) && typeof names[i] === "string" ? names[i] : v }))
      : [];
  if (f.type === "array") return f.items?.anyOf ? consts(f.items.anyOf) : plain(f.items?.enum);
  if (f.oneOf) return consts(f.oneOf);
  return plain(f.enum, f.enumNames);
}
