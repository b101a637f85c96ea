import { useQuery } from "@tanstack/react-query";
import { useLayoutEffect, useRef, useState } from "react";
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
  const heading = useRef<HTMLHeadingElement>(null);
  // The viewer opens below the documents table, often below the fold: bring it on screen and
  // put the focus on its heading (a keyboard or screen-reader user lands on what they opened).
  useLayoutEffect(() => {
    const h = heading.current;
    if (!h) return;
    h.focus({ preventScroll: true });
    const reduce = matchMedia("(prefers-reduced-motion: reduce)").matches;
    h.scrollIntoView({ block: "start", behavior: reduce ? "auto" : "smooth" });
  }, []);
  return (
    <Section
      headingRef={heading}
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
