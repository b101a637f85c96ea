import type { CredentialOut } from "@coffer/protocol";
import { useState } from "react";
import { Field, fieldProps, InlineError } from "../../ui/page-kit.js";
import { SecretInput } from "../credentials/secret-input.js";
import { useNewCredential } from "../credentials/use-new-credential.js";

interface Props {
  /** The credential as its platform declares it (label and where to get it). */
  readonly label: string;
  readonly hint: string | null;
  /** The credential name a newly stored secret is offered under, e.g. "telegram-bot-token". */
  readonly suggestedRef: string;
  readonly value: string;
  readonly onChange: (ref: string) => void;
  readonly credentials: readonly CredentialOut[];
  /** Stores a secret under a ref (write-only); resolves once the credential list knows it. */
  readonly onStore: (ref: string, secret: string) => Promise<unknown>;
  /** The daemon refused this ref (rejected token, missing credential). */
  readonly invalid?: boolean;
}

const STORE_HINT = "Store it under Settings → Credentials — or right here.";

/**
 * The bot token by reference: pick a stored credential, or store a new one without leaving the
 * page. The token input is a password field, never pre-filled, emptied once handed over.
 */
export function TokenField({ label, hint, suggestedRef, value, onChange, credentials, onStore, invalid = false }: Props) {
  const [storing, setStoring] = useState(credentials.length === 0);
  const draft = useNewCredential(suggestedRef);
  const { ref, setRef, secret, setSecret, error, refError } = draft;
  const store = async () => {
    if (!(await draft.store(onStore))) return;
    onChange(ref);
    setStoring(false);
  };
  return (
    <div className="token-field">
      <div className="form-row">
        <Field label={label} hint={hint ? `${hint} ${STORE_HINT}` : STORE_HINT}>
          {(ids) => (
            <select {...fieldProps(ids, invalid)} className="select mono" value={value} onChange={(e) => onChange(e.target.value)}>
              <option value="">{credentials.length ? "Choose a credential…" : "No credentials stored yet"}</option>
              {credentials.map((c) => (
                <option key={c.ref} value={c.ref}>
                  {c.ref}
                </option>
              ))}
            </select>
          )}
        </Field>
        {!storing && (
          <button type="button" className="btn" onClick={() => setStoring(true)}>
            Store a new token
          </button>
        )}
      </div>
      {storing && (
        // Not a nested <form>: Enter in these fields stores the token, not the channel.
        <fieldset className="card token-store" aria-label="Store a bot token">
          <legend className="field-label">Store a bot token</legend>
          <div className="form-row">
            <Field label="Credential name" error={refError}>
              {(ids) => (
                <input
                  {...fieldProps(ids, refError !== null)}
                  className="input mono"
                  value={ref}
                  maxLength={128}
                  spellCheck={false}
                  autoComplete="off"
                  onChange={(e) => setRef(e.target.value)}
                />
              )}
            </Field>
            <Field label={`New ${label.toLowerCase()}`} hint="Stored encrypted; never shown again.">
              {(ids) => <SecretInput ids={ids} value={secret} onChange={setSecret} onEnter={() => void store()} placeholder="123456:ABC…" />}
            </Field>
          </div>
          <InlineError error={error} />
          <div className="form-actions">
            <button type="button" className="btn" disabled={!draft.ready} onClick={() => void store()}>
              Save token
            </button>
            {credentials.length > 0 && (
              <button type="button" className="btn btn-ghost" onClick={() => (setSecret(""), setStoring(false))}>
                Cancel
              </button>
            )}
          </div>
        </fieldset>
      )}
    </div>
  );
}
