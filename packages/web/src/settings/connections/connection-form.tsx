import type { ConnectionOut, CredentialOut, WireOut as ProviderKindOut } from "@coffer/protocol";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError } from "../../api/client.js";
import { useSettingsApi } from "../../api/page-apis.js";
import { Field, fieldProps, InlineError } from "../../ui/page-kit.js";
import { CredentialPicker } from "../credentials/credential-picker.js";
import { ModelField } from "./model-field.js";
import { TestResult } from "./test-result.js";

interface Props {
  readonly connection?: ConnectionOut;
  readonly providerKinds: ProviderKindOut[];
  readonly credentials: CredentialOut[];
  readonly onDone: (saved: boolean) => void;
}

/** Add or change an LLM connection; Test runs a minimal request without saving anything. */
export function ConnectionForm({ connection: c, providerKinds, credentials, onDone }: Props) {
  const settings = useSettingsApi();
  const [name, setName] = useState(c?.name ?? "");
  const [providerKind, setProviderKind] = useState(c?.wire ?? providerKinds[0]?.wire ?? "");
  const [baseUrl, setBaseUrl] = useState(c?.base_url ?? "");
  const [credentialRef, setCredentialRef] = useState(c?.credential_ref ?? "");
  const [model, setModel] = useState(c?.model ?? "");
  const [internalDefault, setInternalDefault] = useState(false);
  const spec = providerKinds.find((k) => k.wire === providerKind);
  const target = { wire: providerKind, base_url: baseUrl.trim() || null, credential_ref: credentialRef.trim() || null };
  const save = useMutation({
    mutationFn: () =>
      c
        ? settings.updateConnection(c.id, { name: name.trim(), ...target, model: model.trim() })
        : settings.createConnection({ name: name.trim(), ...target, model: model.trim(), internal_default: internalDefault || undefined }),
    onSuccess: () => onDone(true),
  });
  const test = useMutation({ mutationFn: () => settings.testConnection({ ...target, model: model.trim() }) });
  const credentialMissing = spec?.needs_credential && !credentialRef.trim();
  const ready = name.trim() && providerKind && model.trim();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (ready) save.mutate();
  };
  // The envelope's message, plus the reason when the daemon names one (CONNECTION_INVALID).
  const reason = save.error instanceof ApiError && typeof save.error.details?.reason === "string" ? save.error.details.reason : null;
  return (
    <form className="card form" onSubmit={submit} aria-label={c ? `Edit ${c.name}` : "Add LLM connection"}>
      <div className="form-row">
        <Field label="Name">
          {(ids) => <input {...fieldProps(ids)} className="input" value={name} required maxLength={100} autoFocus={!c} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Provider" hint={spec ? (spec.needs_credential ? "Needs an API key credential." : "No credential needed.") : undefined}>
          {(ids) => (
            <select {...fieldProps(ids)} className="select" value={providerKind} onChange={(e) => (setProviderKind(e.target.value), test.reset())}>
              {providerKinds.map((k) => (
                <option key={k.wire} value={k.wire}>
                  {k.display_name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div className="form-row">
        <Field label="Base URL" hint="Leave empty for the provider's default.">
          {(ids) => (
            <input
              {...fieldProps(ids)}
              className="input mono"
              type="url"
              value={baseUrl}
              placeholder={spec?.default_base_url}
              spellCheck={false}
              onChange={(e) => setBaseUrl(e.target.value)}
            />
          )}
        </Field>
        <CredentialPicker
          label="Credential"
          hint={credentialMissing ? "Required for this provider: choose a stored credential or create one." : spec?.needs_credential ? "The API key this provider needs." : "Optional for this provider."}
          value={credentialRef}
          onChange={(ref) => (setCredentialRef(ref), test.reset())}
          credentials={credentials}
          optional={!spec?.needs_credential}
        />
      </div>
      <ModelField target={target} value={model} onChange={(m) => (setModel(m), test.reset())} />
      {!c && (
        <label className="check">
          <input type="checkbox" checked={internalDefault} onChange={(e) => setInternalDefault(e.target.checked)} />
          Make this the internal default (the model Coffer uses when an agent asks it for help)
        </label>
      )}
      {save.error && <InlineError error={reason ? new Error(`${(save.error as Error).message} (${reason.replace(/_/g, " ")})`) : save.error} />}
      <TestResult test={test} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={!ready || save.isPending}>
          {c ? "Save connection" : "Add connection"}
        </button>
        <button type="button" className="btn" disabled={!providerKind || !model.trim() || test.isPending} onClick={() => test.mutate()}>
          Test
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
