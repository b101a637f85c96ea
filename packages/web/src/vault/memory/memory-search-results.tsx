import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useVaultApi } from "../../api/page-apis.js";
import type { MemoryFilter } from "../../api/vault-api.js";
import { ForgetFact } from "./forget-fact.js";
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
  /** Runs once the owner has confirmed. */
  onForget: (id: string) => void;
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
                <ForgetFact text={h.text} size="xs" onForget={() => onForget(h.id)} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
