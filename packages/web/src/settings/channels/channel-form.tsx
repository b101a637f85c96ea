import type { AgentOut, ChannelKindOut, ChannelOut, ChannelPatch, CredentialOut } from "@coffer/protocol";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError } from "../../api/client.js";
import { useSettingsApi } from "../../api/page-apis.js";
import { Field, fieldProps, InlineError } from "../../ui/page-kit.js";
import { TokenField } from "./token-field.js";

interface Props {
  readonly channel?: ChannelOut;
  /** The platforms the daemon registered (GET /channel-kinds): a new channel picks one. */
  readonly kinds: readonly ChannelKindOut[];
  readonly agents: readonly AgentOut[];
  readonly credentials: readonly CredentialOut[];
  readonly onStoreToken: (ref: string, secret: string) => Promise<unknown>;
  readonly onDone: (saved: ChannelOut | null) => void;
}

/** Which field a refusal is about, so it is marked there too (the message stays in the alert). */
const FIELD_OF: Partial<Record<string, "name" | "token">> = {
  CHANNEL_NAME_TAKEN: "name",
  CHANNEL_TOKEN_REJECTED: "token",
  CHANNEL_BOT_TAKEN: "token",
  CREDENTIAL_NOT_FOUND: "token",
};

type FormFields = Required<Omit<ChannelPatch, "bot_token_ref">>;

/** Only what the owner changed: untouched credential refs are not sent, so they are not re-checked with the platform. */
function changed(c: ChannelOut, { credentials, ...fields }: FormFields): ChannelPatch {
  const patch = Object.fromEntries(Object.entries(fields).filter(([k, v]) => c[k as keyof typeof fields] !== v)) as ChannelPatch;
  const moved = Object.entries(credentials).filter(([name, ref]) => c.credentials[name] !== ref);
  return moved.length ? { ...patch, credentials: Object.fromEntries(moved) } : patch;
}

/**
 * Add a Telegram channel or change its defaults. The daemon checks the token with Telegram
 * before it stores anything; a refusal leaves every field as it was typed.
 */
export function ChannelForm({ channel: c, kinds, agents, credentials, onStoreToken, onDone }: Props) {
  const settings = useSettingsApi();
  const firstReady = agents.find((a) => a.available)?.agent_key ?? "";
  const [kind, setKind] = useState(c?.kind ?? kinds[0]?.kind ?? "");
  const [name, setName] = useState(c?.name ?? "");
  // One field per credential the platform declares (GET /channel-kinds), each holding a credential ref.
  const [refs, setRefs] = useState<Record<string, string>>(c?.credentials ?? {});
  const declared = kinds.find((k) => k.kind === kind)?.credentials ?? [];
  const [agent, setAgent] = useState(c?.default_agent ?? firstReady);
  const [cwd, setCwd] = useState(c?.default_cwd ?? "");
  const [model, setModel] = useState(c?.default_model ?? "");
  const defaults = { default_agent: agent, default_cwd: cwd.trim() || null, default_model: model.trim() || null };
  const credentialRefs = Object.fromEntries(declared.map((d) => [d.name, refs[d.name] ?? ""]));
  const fields: FormFields = { name: name.trim(), credentials: credentialRefs, ...defaults };
  const save = useMutation({
    mutationFn: () => (c ? settings.updateChannel(c.id, changed(c, fields)) : settings.createChannel({ kind, ...fields })),
    onSuccess: (saved) => onDone(saved),
  });
  const cwdError = cwd.trim() && !cwd.trim().startsWith("/") ? "An absolute path, e.g. /home/me/projects." : null;
  const ready = kind && name.trim() && declared.every((d) => credentialRefs[d.name]) && agent && !cwdError;
  const blamed = save.error instanceof ApiError ? FIELD_OF[save.error.code] : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (ready && !save.isPending) save.mutate();
  };
  return (
    <form className="card form" onSubmit={submit} aria-label={c ? `Edit ${c.name}` : "Add channel"}>
      {!c && kinds.length > 1 && (
        <Field label="Platform" hint="Where you will chat with your agents.">
          {(ids) => (
            <select {...fieldProps(ids)} className="select" value={kind} onChange={(e) => setKind(e.target.value)}>
              {kinds.map(({ kind: k, display_name: label }) => <option key={k} value={k} label={label} />)}
            </select>
          )}
        </Field>
      )}
      <div className="form-row">
        <Field label="Name" hint="Yours to recognise it by, e.g. Phone.">
          {(ids) => (
            <input
              {...fieldProps(ids, blamed === "name")}
              className="input"
              value={name}
              required
              maxLength={64}
              autoFocus={!c}
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Field>
        <Field label="Default agent" hint="New conversations from the chat run this agent.">
          {(ids) => (
            <select {...fieldProps(ids)} className="select" value={agent} onChange={(e) => setAgent(e.target.value)}>
              {agents.length === 0 && <option value="">No agents</option>}
              {agents.map((a) => (
                <option key={a.agent_key} value={a.agent_key} disabled={!a.available && a.agent_key !== c?.default_agent}>
                  {a.display_name} — {a.available ? "Ready" : "Not installed"}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {declared.map((d) => (
        <TokenField
          key={`${kind}:${d.name}`}
          label={d.label}
          hint={d.hint}
          suggestedRef={`${kind}-${d.name.replace(/_/g, "-")}`}
          value={credentialRefs[d.name] ?? ""}
          onChange={(ref) => setRefs((r) => ({ ...r, [d.name]: ref }))}
          credentials={credentials}
          onStore={onStoreToken}
          invalid={blamed === "token"}
        />
      ))}
      <div className="form-row">
        <Field label="Working directory" hint="Optional; empty is the daemon's workspace." error={cwdError}>
          {(ids) => (
            <input
              {...fieldProps(ids, cwdError !== null)}
              className="input mono"
              value={cwd}
              placeholder="/home/me/projects"
              spellCheck={false}
              onChange={(e) => setCwd(e.target.value)}
            />
          )}
        </Field>
        <Field label="Model" hint="Optional; empty is the agent's own default.">
          {(ids) => (
            <input
              {...fieldProps(ids)}
              className="input mono"
              value={model}
              maxLength={200}
              placeholder="default"
              spellCheck={false}
              onChange={(e) => setModel(e.target.value)}
            />
          )}
        </Field>
      </div>
      <InlineError error={save.error} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={!ready || save.isPending}>
          {save.isPending ? (c ? "Saving…" : "Checking the token…") : c ? "Save channel" : "Add channel"}
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
