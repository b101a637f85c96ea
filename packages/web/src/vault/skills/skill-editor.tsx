import { SkillCreate, type SkillDetailOut } from "@coffer/protocol";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError } from "../../api/client.js";
import { useVaultApi } from "../../api/page-apis.js";
import { Markdown } from "../../chat/thread/markdown.js";
import { Field, fieldProps, InlineError } from "../../ui/page-kit.js";

type FieldName = "name" | "description" | "body";

const STARTER = "# What this skill does\n\nSteps the agent follows, in order:\n\n1. …\n";

/** The protocol's own schema says what is wrong, field by field (the daemon checks the same one). */
function localErrors(input: Record<FieldName, string>): Partial<Record<FieldName, string>> {
  const parsed = SkillCreate.safeParse(input);
  if (parsed.success) return {};
  const out: Partial<Record<FieldName, string>> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as FieldName;
    out[key] ??= key !== "body" && !input[key].trim() ? "Required." : sentence(issue.message);
  }
  return out;
}

/** What the daemon refused, on the field it is about: VALIDATION_FAILED issues, or a taken name. */
function serverErrors(err: unknown): Partial<Record<FieldName, string>> {
  if (!(err instanceof ApiError)) return {};
  if (err.code === "SKILL_EXISTS") return { name: "A skill with this name already exists." };
  const issues = (err.details?.issues ?? []) as { path?: string; message?: string }[];
  const out: Partial<Record<FieldName, string>> = {};
  for (const i of issues) if (i.path === "name" || i.path === "description" || i.path === "body") out[i.path] ??= sentence(i.message ?? "Invalid.");
  return out;
}

const sentence = (s: string) => (s ? `${s[0]!.toUpperCase()}${s.slice(1)}${/[.!?]$/.test(s) ? "" : "."}` : s);

/** Write a new skill in the page: name, when to use it, and its SKILL.md body in markdown (with a preview). */
export function SkillEditor({ onDone }: { onDone: (created: SkillDetailOut | null) => void }) {
  const vault = useVaultApi();
  const [input, setInput] = useState<Record<FieldName, string>>({ name: "", description: "", body: STARTER });
  const [touched, setTouched] = useState<Partial<Record<FieldName, boolean>>>({});
  const [preview, setPreview] = useState(false);
  const save = useMutation({ mutationFn: () => vault.createSkill(input), onSuccess: (out) => onDone(out) });
  const local = localErrors(input);
  const remote = serverErrors(save.error);
  const errorOf = (f: FieldName) => (touched[f] ? local[f] : undefined) ?? remote[f] ?? null;
  const set = (f: FieldName, v: string) => {
    if (save.error) save.reset();
    setInput((i) => ({ ...i, [f]: v }));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched({ name: true, description: true, body: true });
    if (Object.keys(local).length === 0) save.mutate();
  };
  const shownElsewhere = save.error instanceof ApiError && Object.keys(remote).length > 0;
  return (
    <form className="card form" onSubmit={submit} aria-label="New skill" noValidate>
      <div className="form-row">
        <Field label="Name" hint="A short id, e.g. release-notes; also the skill's folder name." error={errorOf("name")}>
          {(ids) => (
            <input
              {...fieldProps(ids, !!errorOf("name"))}
              className="input mono"
              value={input.name}
              autoFocus
              spellCheck={false}
              placeholder="release-notes"
              onChange={(e) => set("name", e.target.value)}
              onBlur={() => setTouched((t) => ({ ...t, name: true }))}
            />
          )}
        </Field>
        <Field label="Description" hint="When an agent should use it; agents see this in the catalogue." error={errorOf("description")}>
          {(ids) => (
            <input
              {...fieldProps(ids, !!errorOf("description"))}
              className="input"
              value={input.description}
              maxLength={1024}
              placeholder="Write release notes from merged pull requests"
              onChange={(e) => set("description", e.target.value)}
              onBlur={() => setTouched((t) => ({ ...t, description: true }))}
            />
          )}
        </Field>
      </div>
      <Field label="SKILL.md body" hint="Markdown, below the frontmatter Coffer writes from the name and description." error={errorOf("body")}>
        {(ids) =>
          preview ? (
            <div className="viewer viewer-markdown" id={ids.id} aria-label="Preview of SKILL.md body" tabIndex={0}>
              <Markdown text={input.body} streaming={false} />
            </div>
          ) : (
            <textarea
              {...fieldProps(ids, !!errorOf("body"))}
              className="textarea mono skill-body"
              rows={12}
              value={input.body}
              spellCheck={false}
              onChange={(e) => set("body", e.target.value)}
            />
          )
        }
      </Field>
      {save.error && !shownElsewhere && <InlineError error={save.error} />}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          Create skill
        </button>
        <button type="button" className="btn" aria-pressed={preview} onClick={() => setPreview((p) => !p)}>
          {preview ? "Edit" : "Preview"}
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
