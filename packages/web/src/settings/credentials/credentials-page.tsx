import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useSettingsApi } from "../../api/page-apis.js";
import { Icon } from "../../ui/icons.js";
import { DataTable, EmptyState, Page, Section, Time } from "../../ui/page-kit.js";
import { ConfirmAction } from "../../ui/confirm-action.js";
import { useToast } from "../../ui/toasts.js";
import { CredentialForm } from "./credential-form.js";

export const credentialKeys = { all: ["settings", "credentials"] as const };

/** Secrets by reference: set or replace (write-only), list refs, delete. */
export function CredentialsPage() {
  const settings = useSettingsApi();
  const client = useQueryClient();
  const toast = useToast();
  const [replacing, setReplacing] = useState<string | null>(null);
  const creds = useQuery({ queryKey: credentialKeys.all, queryFn: settings.credentials });
  const invalidate = () => Promise.all([client.invalidateQueries({ queryKey: credentialKeys.all }), client.invalidateQueries({ queryKey: ["settings", "connections"] })]);
  const remove = useMutation({
    mutationFn: (ref: string) => settings.deleteCredential(ref),
    onSuccess: (_, ref) => toast({ text: `Deleted credential '${ref}'` }),
    onError: (err) => toast({ text: `Could not delete: ${(err as Error).message}`, tone: "error" }),
    onSettled: invalidate,
  });
  const list = creds.data?.credentials ?? [];
  return (
    <Page title="Credentials">
      <p className="page-lead">API keys and tokens, encrypted on this machine. Connections and MCP servers keep only the reference.</p>
      <Section title={replacing ? `Replace ${replacing}` : "Add a credential"}>
        <CredentialForm
          replacing={replacing}
          onCancelReplace={() => setReplacing(null)}
          onSave={async (ref, secret) => {
            await settings.setCredential(ref, secret);
            await invalidate();
          }}
        />
      </Section>
      <Section title={creds.data ? `Stored · ${list.length}` : "Stored"}>
        <DataTable
          label="Credentials"
          columns={["Reference", "Created", "Updated", ""]}
          query={creds}
          loadingLabel="Loading credentials"
          isEmpty={list.length === 0}
          empty={
            <EmptyState>No credentials stored yet.</EmptyState>
          }
        >
          {list.map((c) => (
            <tr key={c.ref} aria-selected={replacing === c.ref}>
              <td>
                <span className="cell-main mono">{c.ref}</span>
              </td>
              <td className="cell-sub">
                <Time ts={c.created_at} />
              </td>
              <td className="cell-sub">
                <Time ts={c.updated_at} />
              </td>
              <td>
                <div className="row-actions">
                  <button type="button" className="btn btn-sm" aria-label={`Replace secret of ${c.ref}`} onClick={() => setReplacing(c.ref)}>
                    <Icon name="key" size={14} /> Replace
                  </button>
                  <ConfirmAction
                    label="Delete"
                    ariaLabel={`Delete ${c.ref}`}
                    title={`Delete '${c.ref}'?`}
                    body="Connections and MCP servers that refer to it stop working until it is set again."
                    confirmLabel="Delete credential"
                    onConfirm={() => remove.mutate(c.ref)}
                  />
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      </Section>
    </Page>
  );
}
