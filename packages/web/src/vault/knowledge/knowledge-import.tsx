import type { ImportJobOut } from "@coffer/protocol";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { useVaultApi } from "../../api/page-apis.js";
import { Icon } from "../../ui/icons.js";
import { Field, fieldProps, InlineError } from "../../ui/page-kit.js";
import { toUploadFiles, uploadLabel, type PickedFile } from "../upload/picked-files.js";
import { UploadDrop } from "../upload/upload-drop.js";
import { ImportProgress } from "./import-progress.js";

type Source = { readonly path: string } | { readonly files: PickedFile[] };

/**
 * Import into one base from a path on the daemon's machine or from files uploaded from this
 * browser; either way the daemon runs the same import, and its job is polled until it is done.
 */
export function KnowledgeImport({ kb }: { kb: string }) {
  const vault = useVaultApi();
  const client = useQueryClient();
  const [path, setPath] = useState("");
  const start = useMutation({
    mutationFn: async (src: Source): Promise<ImportJobOut> =>
      "path" in src ? vault.importKnowledge(kb, src.path) : vault.uploadKnowledge(kb, uploadLabel(src.files), await toUploadFiles(src.files)),
  });
  const jobId = start.data?.id ?? null;
  const job = useQuery({
    queryKey: ["vault", "knowledge", "import", jobId],
    queryFn: () => vault.importJob(jobId!),
    enabled: jobId !== null,
    initialData: start.data,
    // No live events for imports: poll while it runs, stop once it is done or failed.
    refetchInterval: (q) => (q.state.data?.status === "running" || q.state.data?.status === "queued" ? 400 : false),
  });
  const status = job.data?.status;
  const busy = start.isPending || status === "running" || status === "queued";
  useEffect(() => {
    if (status === "done" || status === "failed") void client.invalidateQueries({ queryKey: ["vault", "knowledge"] });
  }, [status, client]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (path.trim()) start.mutate({ path: path.trim() });
  };
  return (
    <div className="form">
      <UploadDrop
        label="Upload documents"
        hint="Markdown, text and code files from this computer; other files are listed as skipped."
        busy={busy}
        onFiles={(files) => start.mutate({ files })}
      />
      <form className="form-row" onSubmit={submit} aria-label="Import documents">
        <Field label="Path on the daemon's machine" hint="Or import a file or folder where the daemon runs: no upload limit.">
          {(ids) => (
            <input {...fieldProps(ids)} className="input mono" value={path} placeholder="~/notes" spellCheck={false} onChange={(e) => setPath(e.target.value)} />
          )}
        </Field>
        <button type="submit" className="btn btn-primary" disabled={!path.trim() || busy}>
          <Icon name="download" /> Import
        </button>
      </form>
      <InlineError error={start.error ?? job.error} />
      {job.data && <ImportProgress job={job.data} />}
    </div>
  );
}
