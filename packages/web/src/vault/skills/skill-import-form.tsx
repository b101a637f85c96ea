import type { SkillImportOut } from "@coffer/protocol";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useVaultApi } from "../../api/page-apis.js";
import { Icon } from "../../ui/icons.js";
import { Field, fieldProps, InlineError } from "../../ui/page-kit.js";
import { toUploadFiles, type PickedFile } from "../upload/picked-files.js";
import { UploadDrop } from "../upload/upload-drop.js";

type Source = { readonly path: string } | { readonly files: PickedFile[] };

/** Skill folders into the vault: uploaded from this browser, or copied from a path on the daemon's machine. Same checks either way. */
export function SkillImportForm({ onImported }: { onImported: (out: SkillImportOut) => void }) {
  const vault = useVaultApi();
  const [path, setPath] = useState("");
  const [overwrite, setOverwrite] = useState(false);
  const run = useMutation({
    mutationFn: async (src: Source) => ("path" in src ? vault.importSkills(src.path, overwrite) : vault.uploadSkills(await toUploadFiles(src.files), overwrite)),
    onSuccess: onImported,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (path.trim()) run.mutate({ path: path.trim() });
  };
  const out = run.data;
  return (
    <div className="card form">
      <UploadDrop
        label="Upload skills"
        hint="A skill folder (with its SKILL.md), a folder of them, or a lone SKILL.md."
        busy={run.isPending}
        onFiles={(files) => run.mutate({ files })}
      />
      <form className="form-row" onSubmit={submit} aria-label="Import skills">
        <Field label="Folder path" hint="Or copy from the daemon's machine: a skill folder, or a folder of skill folders.">
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
        <button type="submit" className="btn btn-primary" disabled={!path.trim() || run.isPending}>
          <Icon name={run.isPending ? "spinner" : "download"} /> Import
        </button>
      </form>
      <label className="check">
        <input type="checkbox" checked={overwrite} onChange={(e) => setOverwrite(e.target.checked)} />
        Replace skills that already exist
      </label>
      <InlineError error={run.error} />
      {out && (
        <div className={`banner ${out.imported.length ? "banner-success" : "banner-warning"}`} role="status">
          <Icon name={out.imported.length ? "check" : "alert"} />
          <span className="banner-text">
            {out.imported.length > 0 ? `Imported ${out.imported.length}: ${out.imported.map((s) => s.name ?? s.folder).join(", ")}` : "Nothing imported"}
            {out.skipped.length > 0 && ` · skipped ${out.skipped.map((s) => `${s.folder} (${s.problem})`).join("; ")}`}
          </span>
        </div>
      )}
    </div>
  );
}
