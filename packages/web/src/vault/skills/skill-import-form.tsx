import type { SkillImportOut } from "@coffer/protocol";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useVaultApi } from "../../api/page-apis.js";
import { Icon } from "../../ui/icons.js";
import { Field, fieldProps, InlineError } from "../../ui/page-kit.js";

/** Copy a skill folder (or a folder of them) from the daemon's machine into the vault. */
export function SkillImportForm({ onImported }: { onImported: (out: SkillImportOut) => void }) {
  const vault = useVaultApi();
  const [path, setPath] = useState("");
  const [overwrite, setOverwrite] = useState(false);
  const run = useMutation({ mutationFn: () => vault.importSkills(path.trim(), overwrite), onSuccess: onImported });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (path.trim()) run.mutate();
  };
  const out = run.data;
  return (
    <form className="card form" onSubmit={submit} aria-label="Import skills">
      <div className="form-row">
        <Field label="Folder path" hint="On the daemon's machine: a skill folder, or a folder of skill folders.">
          {(ids) => (
            <input
              {...fieldProps(ids)}
              className="input mono"
              value={path}
              placeholder="~/skills/release-notes"
              spellCheck={false}
              onChange={(e) => setPath(e.target.value)}
            />
          )}
        </Field>
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={!path.trim() || run.isPending}>
          <Icon name={run.isPending ? "spinner" : "download"} /> Import
        </button>
        <label className="check">
          <input type="checkbox" checked={overwrite} onChange={(e) => setOverwrite(e.target.checked)} />
          Replace skills that already exist
        </label>
      </div>
      <InlineError error={run.error} />
      {out && (
        <div className="banner banner-neutral" role="status">
          <span className="banner-text">
            Imported {out.imported.length}
            {out.imported.length > 0 && `: ${out.imported.map((s) => s.name ?? s.folder).join(", ")}`}
            {out.skipped.length > 0 && ` · skipped ${out.skipped.map((s) => `${s.folder} (${s.problem})`).join("; ")}`}
          </span>
        </div>
      )}
    </form>
  );
}
