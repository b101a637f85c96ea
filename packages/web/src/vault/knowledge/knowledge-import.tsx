import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { useVaultApi } from "../../api/page-apis.js";
import { Icon } from "../../ui/icons.js";
import { Field, fieldProps, InlineError } from "../../ui/page-kit.js";
import { ImportProgress } from "./import-progress.js";

/** Start an import into one base, then poll its job until it is no longer running. */
export function KnowledgeImport({ kb }: { kb: string }) {
  const vault = useVaultApi();
  const client = useQueryClient();
  const [path, setPath] = useState("");
  const start = useMutation({ mutationFn: () => vault.importKnowledge(kb, path.trim()) });
  const jobId = start.data?.id ?? null;
  const job = useQuery({
    queryKey: ["vault", "knowledge", "import", jobId],
    queryFn: () => vault.importJob(jobId!),
    enabled: jobId !== null,
    initialData: start.data,
    // No live events for imports: poll while it runs, stop once it is done or failed.
    refetchInterval: (q) => (q.state.data?.status === "running" ? 400 : false),
  });
  const status = job.data?.status;
  useEffect(() => {
    if (status && status !== "running") void client.invalidateQueries({ queryKey: ["vault", "knowledge"] });
  }, [status, client]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (path.trim()) start.mutate();
  };
  return (
    <div className="form">
      <form className="form-row" onSubmit={submit} aria-label="Import documents">
        <Field label="File or folder to import" hint="Markdown, text and code files on the daemon's machine.">
          {(ids) => (
            <input {...fieldProps(ids)} className="input mono" value={path} placeholder="~/notes" spellCheck={false} onChange={(e) => setPath(e.target.value)} />
          )}
        </Field>
        <button type="submit" className="btn btn-primary" disabled={!path.trim() || start.isPending || status === "running"}>
          <Icon name="download" /> Import
        </button>
      </form>
      <InlineError error={start.error ?? job.error} />
      {job.data && <ImportProgress job={job.data} />}
    </div>
  );
}
