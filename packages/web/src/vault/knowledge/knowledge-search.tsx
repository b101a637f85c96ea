import type { KnowledgeBaseOut } from "@coffer/protocol";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useVaultApi } from "../../api/page-apis.js";
import { Icon } from "../../ui/icons.js";
import { EmptyState, InlineError, Section, SkeletonRows, useDebounced } from "../../ui/page-kit.js";
import { isMarkdownFile } from "./markdown-files.js";
import { MarkdownSnippet, Snippet } from "./snippet.js";

/** BM25 search across all bases or one, showing the snippets the agents get. */
export function KnowledgeSearch({ bases }: { bases: KnowledgeBaseOut[] }) {
  const vault = useVaultApi();
  const [q, setQ] = useState("");
  const [kb, setKb] = useState("");
  const query = useDebounced(q.trim(), 250);
  const search = useQuery({
    queryKey: ["vault", "knowledge", "search", query, kb],
    queryFn: () => vault.searchKnowledge(query, kb || undefined),
    enabled: query.length > 0,
    placeholderData: keepPreviousData,
  });
  const hits = query ? (search.data?.hits ?? []) : [];
  return (
    <Section title="Search">
      <div className="search-bar">
        <label className="search">
          <Icon name="search" />
          <input className="search-input" type="search" aria-label="Search knowledge" placeholder="Search knowledge…" value={q} onChange={(e) => setQ(e.target.value)} />
        </label>
        <select className="select" aria-label="Knowledge base to search" value={kb} onChange={(e) => setKb(e.target.value)}>
          <option value="">All knowledge bases</option>
          {bases.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name}
            </option>
          ))}
        </select>
      </div>
      {query && search.isPending && <SkeletonRows label="Searching knowledge" />}
      {query && <InlineError error={search.error} onRetry={() => void search.refetch()} />}
      {query && search.data?.fallback && hits.length > 0 && <p className="field-hint">No passage holds every word; these hold some of them.</p>}
      {query && search.isSuccess && hits.length === 0 && (
        <EmptyState action={<button type="button" className="btn" onClick={() => setQ("")}>Clear search</button>}>Nothing matches “{query}”.</EmptyState>
      )}
      {hits.length > 0 && (
        <ul className="hits" aria-label="Knowledge matches">
          {hits.map((h) => (
            <li key={`${h.document_id}:${h.chunk}`} className="hit">
              {isMarkdownFile(h.filename) ? <MarkdownSnippet text={h.snippet} /> : <Snippet text={h.snippet} />}
              <span className="hit-meta">
                <span className="chip">{h.kb}</span>
                <span className="mono">{h.filename}</span>
                <span>chunk {h.chunk + 1}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
