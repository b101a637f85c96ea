import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useVaultApi } from "../../api/page-apis.js";
import { Markdown } from "../../chat/thread/markdown.js";
import { Icon } from "../../ui/icons.js";
import { InlineError, Section, SkeletonRows } from "../../ui/page-kit.js";
import { isMarkdownFile } from "./markdown-files.js";

/** One document: markdown rendered (with the chat's renderer, sanitized the same way), anything else as written. */
export function DocumentViewer({ id, onClose }: { id: string; onClose: () => void }) {
  const vault = useVaultApi();
  const doc = useQuery({ queryKey: ["vault", "knowledge", "document", id], queryFn: () => vault.document(id) });
  const [source, setSource] = useState(false);
  const markdown = !!doc.data && isMarkdownFile(doc.data.filename);
  return (
    <Section
      title={doc.data?.filename ?? "Document"}
      actions={
        <div className="row-actions">
          {markdown && (
            <button type="button" className="btn btn-sm" aria-pressed={source} onClick={() => setSource((s) => !s)}>
              {source ? "Rendered" : "Source"}
            </button>
          )}
          <button type="button" className="icon-btn" aria-label="Close document" title="Close" onClick={onClose}>
            <Icon name="x" />
          </button>
        </div>
      }
    >
      {doc.isPending && <SkeletonRows rows={5} label="Loading document" />}
      <InlineError error={doc.error} onRetry={() => void doc.refetch()} />
      {doc.data && (
        <>
          <p className="field-hint mono">{doc.data.source_path}</p>
          {markdown && !source ? (
            <div className="viewer viewer-markdown" tabIndex={0} aria-label={`Content of ${doc.data.filename}`}>
              <Markdown text={doc.data.content} streaming={false} />
            </div>
          ) : (
            <pre className="viewer" tabIndex={0} aria-label={`Content of ${doc.data.filename}`}>
              {doc.data.content}
            </pre>
          )}
        </>
      )}
    </Section>
  );
}
