import type { KnowledgeBaseOut } from "@coffer/protocol";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useVaultApi } from "../../api/page-apis.js";
import { Field, fieldProps, InlineError } from "../../ui/page-kit.js";

/** Create a base, or rename/describe one (PATCH). `onDone(null)` is a cancel. */
export function KnowledgeBaseForm({ kb, onDone }: { kb?: KnowledgeBaseOut; onDone: (kb: KnowledgeBaseOut | null) => void }) {
  const vault = useVaultApi();
  const [name, setName] = useState(kb?.name ?? "");
  const [description, setDescription] = useState(kb?.description ?? "");
  const save = useMutation({
    mutationFn: () =>
      kb
        ? vault.updateKnowledgeBase(kb.id, { name: name.trim(), description: description.trim() })
        : vault.createKnowledgeBase({ name: name.trim(), description: description.trim() || undefined }),
    onSuccess: (out) => onDone(out),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) save.mutate();
  };
  return (
    <form className={kb ? "form" : "card form"} onSubmit={submit} aria-label={kb ? "Edit knowledge base" : "New knowledge base"}>
      <div className="form-row">
        <Field label="Name">
          {(ids) => <input {...fieldProps(ids)} className="input" value={name} required autoFocus maxLength={100} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Description">
          {(ids) => <input {...fieldProps(ids)} className="input" value={description} maxLength={1000} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
      </div>
      <InlineError error={save.error} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={!name.trim() || save.isPending}>
          {kb ? "Save" : "Create"}
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
