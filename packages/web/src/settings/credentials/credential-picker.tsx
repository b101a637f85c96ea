import type { CredentialOut } from "@coffer/protocol";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useSettingsApi } from "../../api/page-apis.js";
import { Field, fieldProps, InlineError } from "../../ui/page-kit.js";
import { SecretInput } from "./secret-input.js";
import { useNewCredential } from "./use-new-credential.js";
import "./credential-picker.css";

const NEW = "\u0000new";

interface Props {
  readonly label: string;
  readonly hint?: string;
  /** The chosen ref; "" for none. */
  readonly value: string;
  readonly onChange: (ref: string) => void;
  readonly credentials: readonly CredentialOut[];
  /** Offer "None" (a provider that needs no key). */
  readonly optional: boolean;
}

/**
 * Choose a stored credential by its reference, or create one right here: the new secret goes
 * to the daemon (write-only, as on the Credentials page) and its ref is chosen. A ref that is
 * set but no longer stored stays listed, marked missing, so the owner sees it.
 */
export function CredentialPicker({ label, hint, value, onChange, credentials, optional }: Props) {
  const settings = useSettingsApi();
  const client = useQueryClient();
  const [creating, setCreating] = useState(false);
  const known = credentials.some((c) => c.ref === value);
  const draft = useNewCredential();
  const { ref, setRef, secret, setSecret, error, refError } = draft;
  const save = async () => {
    const stored = await draft.store(async (r, secret) => {
      await settings.setCredential(r, secret);
      await client.invalidateQueries({ queryKey: ["settings", "credentials"] });
    });
    if (!stored) return;
    onChange(ref);
    setCreating(false);
    draft.reset();
  };
  return (
    <div className="form credential-picker">
      <Field label={label} hint={creating ? "The new credential is stored encrypted, then chosen here." : hint}>
        {(ids) => (
          <select
            {...fieldProps(ids)}
            className="select mono"
            value={creating ? NEW : value}
            onChange={(e) => {
              if (e.target.value === NEW) return setCreating(true);
              setCreating(false);
              onChange(e.target.value);
            }}
          >
            <option value="">{optional ? "None" : "Choose a credential…"}</option>
            {credentials.map((c) => (
              <option key={c.ref} value={c.ref}>
                {c.ref}
              </option>
            ))}
            {value && !known && <option value={value}>{value} (not stored)</option>}
            <option value={NEW}>New credential…</option>
          </select>
        )}
      </Field>
      {creating && (
        // Not a <form>: this sits inside the connection's form, and a nested form is invalid HTML.
        <div className="card credential-new" role="group" aria-label="New credential">
          <div className="form-row">
            <Field label="New reference" hint="e.g. anthropic-key" error={refError}>
              {(ids) => (
                <input
                  {...fieldProps(ids, refError !== null)}
                  className="input mono"
                  value={ref}
                  maxLength={128}
                  spellCheck={false}
                  autoComplete="off"
                  autoFocus
                  onChange={(e) => setRef(e.target.value)}
                />
              )}
            </Field>
            <Field label="Secret" hint="Never shown again.">
              {(ids) => <SecretInput ids={ids} value={secret} onChange={setSecret} onEnter={() => void save()} />}
            </Field>
          </div>
          <InlineError error={error} />
          <div className="form-actions">
            <button type="button" className="btn btn-sm btn-primary" disabled={!draft.ready} onClick={() => void save()}>
              Save credential
            </button>
            <button type="button" className="btn btn-sm btn-ghost" onClick={() => (setCreating(false), draft.reset())}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
