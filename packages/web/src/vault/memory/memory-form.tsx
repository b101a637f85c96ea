import type { MemoryFactOut, MemoryScope } from "@coffer/protocol";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useVaultApi } from "../../api/page-apis.js";
import { Field, fieldProps, InlineError } from "../../ui/page-kit.js";

/** Create a fact, or edit one (text, name, type; scope is fixed once written). */
export function MemoryForm({ fact, onDone, onCancel }: { fact?: MemoryFactOut; onDone: () => void; onCancel: () => void }) {
  const vault = useVaultApi();
  const [text, setText] = useState(fact?.text ?? "");
  const [name, setName] = useState(fact?.name ?? "");
  const [type, setType] = useState(fact?.type ?? "fact");
  const [scope, setScope] = useState<MemoryScope>(fact?.scope ?? "global");
  const [project, setProject] = useState(fact?.project ?? "");
  const save = useMutation({
    mutationFn: () =>
      fact
        ? vault.updateFact(fact.id, { text: text.trim(), name: name.trim() || undefined, type: type.trim() || undefined })
        : vault.remember({
            text: text.trim(),
            scope,
            project: scope === "project" ? project.trim() : undefined,
            name: name.trim() || undefined,
            type: type.trim() || undefined,
          }),
    onSuccess: onDone,
  });
  const missingProject = !fact && scope === "project" && !project.trim();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim() && !missingProject) save.mutate();
  };
  return (
    <form className={fact ? "form" : "card form"} onSubmit={submit} aria-label={fact ? "Edit fact" : "New fact"}>
      <Field label="Fact">
        {(ids) => (
          <textarea {...fieldProps(ids)} className="textarea" value={text} required autoFocus onChange={(e) => setText(e.target.value)} />
        )}
      </Field>
      <div className="form-row">
        <Field label="Title" hint="Optional; defaults to the start of the fact.">
          {(ids) => <input {...fieldProps(ids)} className="input" value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Kind">
          {(ids) => <input {...fieldProps(ids)} className="input" value={type} placeholder="fact" onChange={(e) => setType(e.target.value)} />}
        </Field>
        {!fact && (
          <Field label="Scope">
            {(ids) => (
              <select {...fieldProps(ids)} className="select" value={scope} onChange={(e) => setScope(e.target.value as MemoryScope)}>
                <option value="global">Global</option>
                <option value="project">Project</option>
              </select>
            )}
          </Field>
        )}
      </div>
      {!fact && scope === "project" && (
        <Field label="Project folder" hint="The working directory the fact belongs to.">
          {(ids) => (
            <input {...fieldProps(ids)} className="input mono" value={project} placeholder="/home/me/code/app" onChange={(e) => setProject(e.target.value)} />
          )}
        </Field>
      )}
      <InlineError error={save.error} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={!text.trim() || missingProject || save.isPending}>
          {fact ? "Save fact" : "Remember"}
        </button>
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
