import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useVaultApi } from "../../api/page-apis.js";
import type { MemoryFilter } from "../../api/vault-api.js";
import { Icon } from "../../ui/icons.js";
import { EmptyState, InlineError, Section, SkeletonRows, Time } from "../../ui/page-kit.js";

/** Recall as the agents get it (BM25), for the debounced query. */
export function MemorySearchResults({
  q,
  filter,
  onClear,
  onForget,
}: {
  q: string;
  filter: MemoryFilter;
  onClear: () => void;
  onForget: (fact: { id: string; text: string }) => void;
}) {
  const vault = useVaultApi();
  const search = useQuery({
    queryKey: ["vault", "memory", "search", q, filter.scope ?? ""],
    queryFn: () => vault.searchMemory(q, filter),
    placeholderData: keepPreviousData,
  });
  const hits = search.data?.hits ?? [];
  return (
    <Section title={search.data ? `Matches · ${hits.length}` : "Matches"}>
      {search.isPending && <SkeletonRows label="Searching memory" />}
      <InlineError error={search.error} onRetry={() => void search.refetch()} />
      {search.data?.fallback && hits.length > 0 && <p className="field-hint">No fact holds every word; these hold some of them.</p>}
      {search.isSuccess && hits.length === 0 && (
        <EmptyState action={<button type="button" className="btn" onClick={onClear}>Clear search</button>}>
          No fact matches “{q}”.
        </EmptyState>
      )}
      {hits.length > 0 && (
        <ul className="hits" aria-label="Memory matches">
          {hits.map((h) => (
            <li key={h.id} className="hit">
              <span>{h.text}</span>
              <span className="hit-meta">
                <span className="chip">{h.source === "global" ? "Global" : h.source.replace(/^project:/, "Project · ")}</span>
                <Time ts={h.time} />
                <button type="button" className="btn btn-xs btn-outline-danger" aria-label={`Delete fact ${h.text.slice(0, 40)}`} onClick={() => onForget(h)}>
                  <Icon name="trash" size={14} /> Delete
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
