import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useSettingsApi } from "../../api/page-apis.js";
import { CredentialPicker } from "../../settings/credentials/credential-picker.js";
import { Field, fieldProps } from "../../ui/page-kit.js";

interface Props {
  /** "Variable" (environment) or "Header". */
  readonly keyLabel: string;
  readonly placeholder: string;
  /** Adds `KEY=credential:ref` (or `Header: credential:ref`) to the field's text. */
  readonly onAdd: (key: string, ref: string) => void;
}

/** Pick a stored credential (or create one) for an environment variable or header, instead of typing its ref. */
export function CredentialLine({ keyLabel, placeholder, onAdd }: Props) {
  const settings = useSettingsApi();
  const creds = useQuery({ queryKey: ["settings", "credentials"], queryFn: settings.credentials });
  const [key, setKey] = useState("");
  const [ref, setRef] = useState("");
  const ready = key.trim() && ref;
  return (
    <div className="form-row credential-line" role="group" aria-label={`Add a credential as ${keyLabel.toLowerCase()}`}>
      <Field label={keyLabel}>
        {(ids) => <input {...fieldProps(ids)} className="input mono" value={key} placeholder={placeholder} spellCheck={false} onChange={(e) => setKey(e.target.value)} />}
      </Field>
      <CredentialPicker label="From credential" value={ref} onChange={setRef} credentials={creds.data?.credentials ?? []} optional={false} />
      <button type="button" className="btn" disabled={!ready} onClick={() => (onAdd(key.trim(), ref), setKey(""), setRef(""))}>
        Add
      </button>
    </div>
  );
}
