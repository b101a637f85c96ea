import { useQuery } from "@tanstack/react-query";
import { useVaultApi } from "../../api/page-apis.js";
import { Icon } from "../../ui/icons.js";
import { InlineError, Section, SkeletonRows } from "../../ui/page-kit.js";

export function DocumentViewer({ id, onClose }: { id: string; onClose: () => void }) {
  const vault = useVaultApi();
  const doc = useQuery({ queryKey: ["vault", "knowledge", "document", id], queryFn: () => vault.document(id) });
  return (
    <Section
      title={doc.data?.filename ?? "Document"}
      actions={
        <button type="button" className="icon-btn" aria-label="Close document" title="Close" onClick={onClose}>
          <Icon name="x" />
        </button>
      }
    >
      {doc.isPending && <SkeletonRows rows={5} label="Loading document" />}
      <InlineError error={doc.error} onRetry={() => void doc.refetch()} />
      {doc.data && (
        <>
          <p className="field-hint mono">{doc.data.source_path}</p>
          <pre className="viewer" tabIndex={0} aria-label={`Content of ${doc.data.filename}`}>
            {doc.data.content}
          </pre>
        </>
      )}
    </Section>
  );
}
