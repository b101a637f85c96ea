import type { MemoryFactOut, MemoryScope } from "@coffer/protocol";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useVaultApi } from "../../api/page-apis.js";
import type { MemoryFilter } from "../../api/vault-api.js";
import { Icon } from "../../ui/icons.js";
import { DataTable, EmptyState, Page, Section, Time, useDebounced } from "../../ui/page-kit.js";
import { useToast } from "../../ui/toasts.js";
import { ForgetFact } from "./forget-fact.js";
import { MemoryForm } from "./memory-form.js";
import { MemorySearchResults } from "./memory-search-results.js";

const PAGE = 50;
export const memoryKeys = { all: ["vault", "memory"] as const };

/** Memory facts: list (paged), search (debounced), and create/edit/delete. */
export function MemoryPage() {
  const vault = useVaultApi();
  const client = useQueryClient();
  const toast = useToast();
  const [scope, setScope] = useState<MemoryScope | "">("");
  const [offset, setOffset] = useState(0);
  const [q, setQ] = useState("");
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const query = useDebounced(q.trim(), 250);
  const filter: MemoryFilter = scope ? { scope } : {};
  const list = useQuery({
    queryKey: [...memoryKeys.all, "list", scope, offset],
    queryFn: () => vault.memory({ ...filter, limit: PAGE, offset }),
    placeholderData: keepPreviousData,
  });
  const invalidate = () => client.invalidateQueries({ queryKey: memoryKeys.all });
  const forget = useMutation({
    mutationFn: (id: string) => vault.forget(id),
    onSuccess: () => toast({ text: "Fact forgotten" }),
    onError: (err) => toast({ text: `Could not delete: ${(err as Error).message}`, tone: "error" }),
    onSettled: invalidate,
  });
  const facts = list.data?.facts ?? [];
  const total = list.data?.total ?? 0;
  return (
    <Page
      title="Memory"
      actions={
        <button type="button" className="btn btn-primary" onClick={() => setAdding(true)} aria-expanded={adding}>
          <Icon name="plus" /> New fact
        </button>
      }
    >
      <p className="page-lead">
        Facts your agents remember from one conversation to the next: for every project, or for one project folder.
      </p>
      {adding && (
        <Section title="New fact">
          <MemoryForm
            onDone={() => {
              setAdding(false);
              void invalidate();
            }}
            onCancel={() => setAdding(false)}
          />
        </Section>
      )}
      <div className="search-bar">
        <label className="search">
          <Icon name="search" />
          <input
            className="search-input"
            type="search"
            aria-label="Search memory"
            placeholder="Search memory…"
            value={q}
            onChange={(e) => setQ(e.target.value)}
          />
        </label>
        <select className="select" aria-label="Scope" value={scope} onChange={(e) => (setScope(e.target.value as MemoryScope | ""), setOffset(0))}>
          <option value="">All scopes</option>
          <option value="global">Global</option>
          <option value="project">Project</option>
        </select>
      </div>
      {query ? (
        <MemorySearchResults q={query} filter={filter} onClear={() => setQ("")} onForget={(id) => forget.mutate(id)} />
      ) : (
        <Section title={list.data ? `Facts · ${total}` : "Facts"}>
          <DataTable
            label="Memory facts"
            columns={["Fact", "Scope", "By", "Updated", ""]}
            query={list}
            loadingLabel="Loading memory"
            isEmpty={total === 0}
            empty={
              <EmptyState action={<button type="button" className="btn" onClick={() => setAdding(true)}>New fact</button>}>
                Nothing remembered yet.
              </EmptyState>
            }
            footer={
              total > PAGE && (
                <div className="table-foot">
                  <span>
                    {offset + 1}–{Math.min(offset + PAGE, total)} of {total}
                  </span>
                  <span className="form-actions">
                    <button type="button" className="btn btn-sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
                      Previous
                    </button>
                    <button type="button" className="btn btn-sm" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>
                      Next
                    </button>
                  </span>
                </div>
              )
            }
          >
            {facts.map((f) =>
              editing === f.id ? (
                <tr key={f.id}>
                  <td colSpan={5}>
                    <MemoryForm
                      fact={f}
                      onDone={() => {
                        setEditing(null);
                        void invalidate();
                      }}
                      onCancel={() => setEditing(null)}
                    />
                  </td>
                </tr>
              ) : (
                <FactRow key={f.id} fact={f} onEdit={() => setEditing(f.id)} onDelete={() => forget.mutate(f.id)} />
              ),
            )}
          </DataTable>
        </Section>
      )}
    </Page>
  );
}

/** `onDelete` runs once the owner has confirmed. */
function FactRow({ fact, onEdit, onDelete }: { fact: MemoryFactOut; onEdit: () => void; onDelete: () => void }) {
  const short = fact.name || fact.text.slice(0, 40);
  return (
    <tr>
      <td>
        <span className="cell-main">{fact.text}</span>
        {fact.type !== "fact" && <span className="cell-sub">{fact.type}</span>}
      </td>
      <td>
        <span className="chip">{fact.scope === "global" ? "Global" : "Project"}</span>
        {fact.project && <span className="cell-sub mono cell-clip" title={fact.project}>{fact.project}</span>}
      </td>
      <td className="cell-sub">{fact.actor}</td>
      <td className="cell-sub">
        <Time ts={fact.updated_at} />
      </td>
      <td>
        <div className="row-actions">
          <button type="button" className="btn btn-sm" aria-label={`Edit fact ${short}`} onClick={onEdit}>
            <Icon name="pencil" size={14} /> Edit
          </button>
          <ForgetFact text={fact.text} name={fact.name} onForget={onDelete} />
        </div>
      </td>
    </tr>
  );
}
