import { credentialRefError } from "./use-new-credential.js";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Field, fieldProps, InlineError } from "../../ui/page-kit.js";

interface Props {
  /** Set when the owner chose "Replace secret" on a row: the ref is filled in, the secret never. */
  readonly replacing: string | null;
  readonly onSave: (ref: string, secret: string) => Promise<unknown>;
  readonly onCancelReplace: () => void;
}

/**
 * Write-only: a password input that is never pre-filled and is emptied as soon as the
 * secret has been handed to the daemon (successfully or not).
 */
export function CredentialForm({ replacing, onSave, onCancelReplace }: Props) {
  const [ref, setRef] = useState(replacing ?? "");
  const [secret, setSecret] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const secretInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (replacing === null) return;
    setRef(replacing);
    setSecret("");
    // A "Saved x." from the last save would read as if this replacement were done already.
    setSaved(null);
    secretInput.current?.focus();
  }, [replacing]);
  const refError = credentialRefError(ref);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ref || refError || !secret) return;
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      await onSave(ref, secret);
      setSaved(ref);
      setRef("");
      onCancelReplace();
    } catch (err) {
      setError(err);
    } finally {
      setSecret("");
      setBusy(false);
    }
  };
  return (
    <form className="card form" onSubmit={submit} aria-label={replacing ? `Replace secret of ${replacing}` : "Add credential"} autoComplete="off">
      <div className="form-row">
        <Field label="Reference" hint="What connections and MCP servers refer to, e.g. anthropic-key." error={refError}>
          {(ids) => (
            <input
              {...fieldProps(ids, refError !== null)}
              className="input mono"
              value={ref}
              maxLength={128}
              readOnly={replacing !== null}
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => (setRef(e.target.value), setSaved(null))}
            />
          )}
        </Field>
        <Field label="Secret" hint="Stored encrypted. It is never shown again, here or anywhere.">
          {(ids) => (
            <input
              {...fieldProps(ids)}
              ref={secretInput}
              className="input mono"
              type="password"
              value={secret}
              autoComplete="new-password"
              spellCheck={false}
              onChange={(e) => setSecret(e.target.value)}
            />
          )}
        </Field>
      </div>
      <InlineError error={error} />
      {saved && (
        <p className="note-ok" role="status">
          Saved {saved}.
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={!ref || refError !== null || !secret || busy}>
          {replacing ? "Replace secret" : "Save credential"}
        </button>
        {replacing && (
          <button type="button" className="btn btn-ghost" onClick={() => (setRef(""), setSecret(""), onCancelReplace())}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
