import type { KnowledgeBaseOut } from "@coffer/protocol";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useVaultApi } from "../../api/page-apis.js";
import { Icon } from "../../ui/icons.js";
import { DataTable, EmptyState, Section, Time } from "../../ui/page-kit.js";
import { ConfirmAction } from "../../ui/confirm-action.js";
import { useToast } from "../../ui/toasts.js";
import { DocumentViewer } from "./document-viewer.js";
import { KnowledgeBaseForm } from "./knowledge-base-form.js";
import { KnowledgeImport } from "./knowledge-import.js";

/** One base: rename, import into it, its documents and a viewer. */
export function KnowledgeBaseDetail({ kb }: { kb: KnowledgeBaseOut }) {
  const vault = useVaultApi();
  const client = useQueryClient();
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const [viewing, setViewing] = useState<string | null>(null);
  const docs = useQuery({ queryKey: ["vault", "knowledge", "documents", kb.id], queryFn: () => vault.documents(kb.id) });
  const remove = useMutation({
    mutationFn: (doc: string) => vault.deleteDocument(doc),
    onSuccess: (_, doc) => viewing === doc && setViewing(null),
    onError: (err) => toast({ text: `Could not delete: ${(err as Error).message}`, tone: "error" }),
    onSettled: () => client.invalidateQueries({ queryKey: ["vault", "knowledge"] }),
  });
  const list = docs.data?.documents ?? [];
  return (
    <>
      <Section
        title={`${kb.name} · documents`}
        actions={
          !editing && (
            <button type="button" className="btn btn-sm" onClick={() => setEditing(true)}>
              <Icon name="pencil" size={14} /> Rename
            </button>
          )
        }
      >
        {editing && (
          <div className="card">
            <KnowledgeBaseForm
              kb={kb}
              onDone={(out) => {
                setEditing(false);
                if (out) void client.invalidateQueries({ queryKey: ["vault", "knowledge"] });
              }}
            />
          </div>
        )}
        <KnowledgeImport kb={kb.id} />
        <DataTable
          label={`Documents in ${kb.name}`}
          columns={["File", { label: "Characters", numeric: true }, { label: "Chunks", numeric: true }, "Added", ""]}
          query={docs}
          loadingLabel="Loading documents"
          isEmpty={list.length === 0}
          empty={
            <EmptyState>No documents yet. Import a file or folder above.</EmptyState>
          }
          scroll
        >
          {list.map((d) => (
            <tr key={d.id} aria-selected={viewing === d.id}>
              <td>
                <span className="cell-main mono">{d.filename}</span>
              </td>
              <td className="num">{d.chars.toLocaleString()}</td>
              <td className="num">{d.chunks}</td>
              <td className="cell-sub">
                <Time ts={d.created_at} />
              </td>
              <td>
                <div className="row-actions">
                  <button type="button" className="btn btn-sm" aria-pressed={viewing === d.id} aria-label={`View ${d.filename}`} onClick={() => setViewing(viewing === d.id ? null : d.id)}>
                    <Icon name="eye" size={14} /> View
                  </button>
                  <ConfirmAction
                    label="Delete"
                    ariaLabel={`Delete ${d.filename}`}
                    title={`Delete ${d.filename}?`}
                    body="The document and its chunks leave this knowledge base."
                    confirmLabel="Delete document"
                    onConfirm={() => remove.mutate(d.id)}
                  />
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      </Section>
      {viewing && <DocumentViewer key={viewing} id={viewing} onClose={() => setViewing(null)} />}
    </>
  );
}
