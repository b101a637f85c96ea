import type { ConnectionOut } from "@coffer/protocol";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useSettingsApi } from "../../api/page-apis.js";
import { Icon } from "../../ui/icons.js";
import { DataTable, EmptyState, InlineError, Page, Section } from "../../ui/page-kit.js";
import { ConfirmAction } from "../../ui/confirm-action.js";
import { useToast } from "../../ui/toasts.js";
import { ConnectionForm } from "./connection-form.js";
import { VoiceSection } from "./voice-section.js";

export const connectionKeys = { all: ["settings", "connections"] as const };

/** LLM connections: the providers Coffer's own engine (coffer__ask) can run on. */
export function ConnectionsPage() {
  const settings = useSettingsApi();
  const client = useQueryClient();
  const toast = useToast();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const providerKinds = useQuery({ queryKey: ["settings", "wires"], queryFn: settings.wires, staleTime: Infinity });
  const creds = useQuery({ queryKey: ["settings", "credentials"], queryFn: settings.credentials });
  const conns = useQuery({ queryKey: connectionKeys.all, queryFn: settings.connections });
  const invalidate = () => client.invalidateQueries({ queryKey: connectionKeys.all });
  const fail = (err: Error) => toast({ text: err.message, tone: "error" });
  const setDefault = useMutation({
    mutationFn: (c: ConnectionOut) => (c.internal_default ? settings.updateConnection(c.id, { internal_default: false }) : settings.makeInternalDefault(c.id)),
    onError: fail,
    onSettled: invalidate,
  });
  const remove = useMutation({
    mutationFn: (c: ConnectionOut) => settings.deleteConnection(c.id),
    onSuccess: (_, c) => toast({ text: `Removed connection '${c.name}'` }),
    onError: fail,
    onSettled: invalidate,
  });
  const list = conns.data?.connections ?? [];
  const kindList = providerKinds.data?.wires ?? [];
  const providerName = (kind: string) => kindList.find((k) => k.wire === kind)?.display_name ?? kind;
  const formProps = { providerKinds: kindList, credentials: creds.data?.credentials ?? [] };
  return (
    <Page
      title="LLM Connections"
      actions={
        <button type="button" className="btn btn-primary" aria-expanded={adding} disabled={!providerKinds.data} onClick={() => setAdding(true)}>
          <Icon name="plus" /> Add connection
        </button>
      }
    >
      <p className="page-lead">
        Models Coffer itself uses when an agent asks it for help. Chat agents run on their own models and need none.
      </p>
      <InlineError error={providerKinds.error} onRetry={() => void providerKinds.refetch()} />
      {adding && providerKinds.data && (
        <Section title="New connection">
          <ConnectionForm
            {...formProps}
            onDone={(saved) => {
              setAdding(false);
              if (saved) void invalidate();
            }}
          />
        </Section>
      )}
      <Section title={conns.data ? `Connections · ${list.length}` : "Connections"}>
        <DataTable
          label="LLM connections"
          columns={["Name", "Provider", "Model", "Credential", ""]}
          query={conns}
          loadingLabel="Loading connections"
          isEmpty={list.length === 0}
          empty={
            <EmptyState action={providerKinds.data && <button type="button" className="btn" onClick={() => setAdding(true)}>Add connection</button>}>
            No connections yet. Chat works without one; an agent asking Coffer for help needs one as the internal default.
          </EmptyState>
          }
        >
          {list.map((c) =>
            editing === c.id ? (
              <tr key={c.id}>
                <td colSpan={5}>
                  <ConnectionForm
                    {...formProps}
                    connection={c}
                    onDone={(saved) => {
                      setEditing(null);
                      if (saved) void invalidate();
                    }}
                  />
                </td>
              </tr>
            ) : (
              <tr key={c.id}>
                <td>
                  <span className="cell-main">{c.name}</span> {c.internal_default && <span className="chip chip-accent">Internal default</span>}
                  <span className="cell-sub mono">{c.base_url ?? "default URL"}</span>
                </td>
                <td>{providerName(c.wire)}</td>
                <td className="mono">{c.model}</td>
                <td>
                  {c.credential_ref ? (
                    <>
                      <span className="mono">{c.credential_ref}</span>{" "}
                      {c.credential_set ? <span className="chip chip-success">Set</span> : <span className="chip chip-danger">Missing</span>}
                    </>
                  ) : (
                    <span className="cell-sub">None</span>
                  )}
                </td>
                <td>
                  <div className="row-actions">
                    <button
                      type="button"
                      className="btn btn-sm"
                      aria-label={c.internal_default ? `Clear internal default (${c.name})` : `Make ${c.name} the internal default`}
                      onClick={() => setDefault.mutate(c)}
                    >
                      <Icon name={c.internal_default ? "x" : "check"} size={14} /> {c.internal_default ? "Clear default" : "Make default"}
                    </button>
                    <button type="button" className="btn btn-sm" aria-label={`Edit ${c.name}`} onClick={() => setEditing(c.id)}>
                      <Icon name="pencil" size={14} /> Edit
                    </button>
                    <ConfirmAction
                      label="Remove"
                      ariaLabel={`Remove ${c.name}`}
                      title={`Remove '${c.name}'?`}
                      body={c.internal_default ? "It is the internal default: agents cannot ask Coffer for help until another is chosen." : "The connection is removed; its credential stays."}
                      confirmLabel="Remove connection"
                      onConfirm={() => remove.mutate(c)}
                    />
                  </div>
                </td>
              </tr>
            ),
          )}
        </DataTable>
      </Section>
      <VoiceSection />
    </Page>
  );
}
