import type { McpServerCreate, McpServerOut, McpServerPatch } from "@coffer/protocol";
import { McpServerName } from "@coffer/protocol";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useVaultApi } from "../../api/page-apis.js";
import { Field, fieldProps, InlineError } from "../../ui/page-kit.js";
import { CredentialLine } from "./credential-line.js";
import { formatPairs, parseArgs, parsePairs } from "./server-fields.js";

const appendLine = (text: string, line: string) => (text.trim() ? `${text.replace(/\s+$/, "")}\n${line}` : line);

/** Add a stdio or HTTP server, or change one (name and transport are fixed once created). */
export function McpServerForm({ server, onDone }: { server?: McpServerOut; onDone: (saved: boolean) => void }) {
  const vault = useVaultApi();
  const [name, setName] = useState(server?.name ?? "");
  const [transport, setTransport] = useState<"stdio" | "http">(server?.transport ?? "stdio");
  const [command, setCommand] = useState(server?.command ?? "");
  const [args, setArgs] = useState(server?.args.join("\n") ?? "");
  const [env, setEnv] = useState(server ? formatPairs(server.env, "=") : "");
  const [url, setUrl] = useState(server?.url ?? "");
  const [headers, setHeaders] = useState(server ? formatPairs(server.headers, ":") : "");
  const nameCheck = server || !name ? null : McpServerName.safeParse(name);
  const nameError = nameCheck && !nameCheck.success ? (nameCheck.error.issues[0]?.message ?? "invalid name") : null;
  const envParsed = parsePairs(env, "=");
  const headerParsed = parsePairs(headers, ":");
  const save = useMutation({
    mutationFn: () => {
      if (server) {
        const patch: McpServerPatch =
          transport === "stdio"
            ? { command: command.trim(), args: parseArgs(args), env: envParsed.pairs }
            : { url: url.trim(), headers: headerParsed.pairs };
        return vault.updateMcpServer(server.name, patch);
      }
      const body: McpServerCreate =
        transport === "stdio"
          ? { name, transport, command: command.trim(), args: parseArgs(args), env: envParsed.pairs, enabled: true }
          : { name, transport, url: url.trim(), headers: headerParsed.pairs, enabled: true };
      return vault.createMcpServer(body);
    },
    onSuccess: () => onDone(true),
  });
  const incomplete = !name || nameError !== null || (transport === "stdio" ? !command.trim() || envParsed.error : !url.trim() || headerParsed.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!incomplete) save.mutate();
  };
  return (
    <form className="card form" onSubmit={submit} aria-label={server ? `Edit ${server.name}` : "Add MCP server"}>
      <div className="form-row">
        <Field label="Name" hint={server ? undefined : "Tools appear to agents as name__tool."} error={nameError}>
          {(ids) => (
            <input
              {...fieldProps(ids, nameError !== null)}
              className="input mono"
              value={name}
              disabled={!!server}
              required
              autoFocus={!server}
              spellCheck={false}
              onChange={(e) => setName(e.target.value.trim())}
            />
          )}
        </Field>
        <fieldset className="field">
          <legend className="field-label">Transport</legend>
          <div className="radio-row">
            {(["stdio", "http"] as const).map((t) => (
              <label key={t} className="check">
                <input type="radio" name="transport" value={t} checked={transport === t} disabled={!!server} onChange={() => setTransport(t)} />
                {t === "stdio" ? "Local command (stdio)" : "HTTP"}
              </label>
            ))}
          </div>
        </fieldset>
      </div>
      {transport === "stdio" ? (
        <>
          <Field label="Command" hint="An executable on the daemon's machine, e.g. npx or node.">
            {(ids) => <input {...fieldProps(ids)} className="input mono" value={command} spellCheck={false} onChange={(e) => setCommand(e.target.value)} />}
          </Field>
          <div className="form-row">
            <Field label="Arguments" hint="One per line.">
              {(ids) => <textarea {...fieldProps(ids)} className="textarea mono" value={args} spellCheck={false} onChange={(e) => setArgs(e.target.value)} />}
            </Field>
            <Field label="Environment" hint="KEY=value per line; KEY=credential:ref reads a stored credential." error={envParsed.error}>
              {(ids) => (
                <textarea {...fieldProps(ids, !!envParsed.error)} className="textarea mono" value={env} spellCheck={false} onChange={(e) => setEnv(e.target.value)} />
              )}
            </Field>
          </div>
          <CredentialLine keyLabel="Variable" placeholder="API_KEY" onAdd={(k, ref) => setEnv((t) => appendLine(t, `${k}=credential:${ref}`))} />
        </>
      ) : (
        <>
          <Field label="URL" hint="The server's Streamable HTTP endpoint.">
            {(ids) => <input {...fieldProps(ids)} className="input mono" type="url" value={url} placeholder="http://127.0.0.1:8080/mcp" onChange={(e) => setUrl(e.target.value)} />}
          </Field>
          <Field label="Headers" hint="Name: value per line; Authorization: credential:ref reads a stored credential." error={headerParsed.error}>
            {(ids) => (
              <textarea {...fieldProps(ids, !!headerParsed.error)} className="textarea mono" value={headers} spellCheck={false} onChange={(e) => setHeaders(e.target.value)} />
            )}
          </Field>
          <CredentialLine keyLabel="Header" placeholder="Authorization" onAdd={(k, ref) => setHeaders((t) => appendLine(t, `${k}: credential:${ref}`))} />
        </>
      )}
      <InlineError error={save.error} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={!!incomplete || save.isPending}>
          {server ? "Save and restart" : "Add server"}
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
