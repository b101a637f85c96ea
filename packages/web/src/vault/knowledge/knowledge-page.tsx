import type { KnowledgeBaseOut } from "@coffer/protocol";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { useVaultApi } from "../../api/page-apis.js";
import { Icon } from "../../ui/icons.js";
import { plural } from "../../ui/plural.js";
import { DataTable, EmptyState, Page, Section } from "../../ui/page-kit.js";
import { ConfirmAction } from "../../ui/confirm-action.js";
import { useToast } from "../../ui/toasts.js";
import { KnowledgeBaseDetail } from "./knowledge-base-detail.js";
import { KnowledgeBaseForm } from "./knowledge-base-form.js";
import { KnowledgeSearch } from "./knowledge-search.js";

export const knowledgeKeys = { all: ["vault", "knowledge"] as const };

/** Knowledge bases: create, import documents with progress, read them, search them. */
export function KnowledgePage() {
  const vault = useVaultApi();
  const client = useQueryClient();
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const selected = params.get("kb");
  const select = (id: string | null) => setParams(id ? { kb: id } : {}, { replace: true });
  const [creating, setCreating] = useState(false);
  const bases = useQuery({ queryKey: [...knowledgeKeys.all, "bases"], queryFn: vault.knowledgeBases });
  const remove = useMutation({
    mutationFn: (kb: KnowledgeBaseOut) => vault.deleteKnowledgeBase(kb.id),
    onSuccess: (_, kb) => {
      if (selected === kb.id) select(null);
      toast({ text: `Deleted knowledge base '${kb.name}'` });
    },
    onError: (err) => toast({ text: `Could not delete: ${(err as Error).message}`, tone: "error" }),
    onSettled: () => client.invalidateQueries({ queryKey: knowledgeKeys.all }),
  });
  const list = bases.data?.knowledge_bases ?? [];
  const current = list.find((b) => b.id === selected) ?? null;
  return (
    <Page
      title="Knowledge"
      actions={
        <button type="button" className="btn btn-primary" aria-expanded={creating} onClick={() => setCreating(true)}>
          <Icon name="plus" /> New knowledge base
        </button>
      }
    >
      <p className="page-lead">
        Documents your agents can search and read while they work, grouped into knowledge bases.
      </p>
      {creating && (
        <Section title="New knowledge base">
          <KnowledgeBaseForm
            onDone={(kb) => {
              setCreating(false);
              void client.invalidateQueries({ queryKey: knowledgeKeys.all });
              if (kb) select(kb.id);
            }}
          />
        </Section>
      )}
      <Section title={bases.data ? `Knowledge bases · ${list.length}` : "Knowledge bases"}>
        <DataTable
          label="Knowledge bases"
          columns={["Name", { label: "Documents", numeric: true }, { label: "Chunks", numeric: true }, ""]}
          query={bases}
          loadingLabel="Loading knowledge bases"
          isEmpty={list.length === 0}
          empty={
            <EmptyState action={<button type="button" className="btn" onClick={() => setCreating(true)}>New knowledge base</button>}>
                        No knowledge bases yet.
                      </EmptyState>
          }
        >
          {list.map((kb) => (
            <tr key={kb.id} aria-selected={kb.id === selected}>
              <td>
                <span className="cell-main">{kb.name}</span>
                {kb.description && <span className="cell-sub">{kb.description}</span>}
              </td>
              <td className="num">{kb.documents}</td>
              <td className="num">{kb.chunks}</td>
              <td>
                <div className="row-actions">
                  <button type="button" className="btn btn-sm" aria-pressed={kb.id === selected} aria-label={`Open ${kb.name}`} onClick={() => select(kb.id === selected ? null : kb.id)}>
                    <Icon name="folder" size={14} /> Open
                  </button>
                  <ConfirmAction
                    label="Delete"
                    ariaLabel={`Delete ${kb.name}`}
                    title={`Delete '${kb.name}'?`}
                    body={`Its ${plural(kb.documents, "document")} and ${plural(kb.chunks, "chunk")} are removed. Files on disk stay.`}
                    confirmLabel="Delete knowledge base"
                    onConfirm={() => remove.mutate(kb)}
                  />
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      </Section>
      {list.length > 0 && <KnowledgeSearch bases={list} />}
      {current && <KnowledgeBaseDetail key={current.id} kb={current} />}
    </Page>
  );
}
