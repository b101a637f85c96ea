import { RETENTION_ROUTES, type AgentOut, type AgentSetupOut } from "@coffer/protocol";
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { useApi } from "../../api/api-context.js";
import { CopyButton } from "../../ui/copy-button.js";
import { AgentMark, Icon } from "../../ui/icons.js";

/** One row of the card: a command to copy, or (no command) just its note. */
interface SetupRow {
  readonly label: string;
  readonly command?: string;
  readonly note?: string;
}

/**
 * The card's rows from the agent's own setup (GET /chat/agents): Install, then each sign-in
 * command; the environment variables the daemon reads instead are said after the last command
 * ("or set `X` for the daemon"), or as the sign-in row itself when the agent has no command.
 */
export function setupRows(setup: AgentSetupOut): SetupRow[] {
  const commands = setup.sign_in.flatMap((s) => ("command" in s ? [s] : []));
  const envs = setup.sign_in.flatMap((s) => ("env" in s ? [`\`${s.env}\``] : []));
  const envText = envs.join(" or ");
  const rows: SetupRow[] = [{ label: "Install", command: setup.install.command, ...(setup.install.note ? { note: setup.install.note } : {}) }];
  commands.forEach((c, i) => {
    const last = i === commands.length - 1;
    const alternative = last && envs.length ? `(or set ${envText} for the daemon)` : "";
    const note = [c.note, alternative].filter(Boolean).join(" ");
    rows.push({ label: "Sign in", command: c.command, ...(note ? { note } : {}) });
  });
  if (!commands.length && envs.length) rows.push({ label: "Sign in", note: `Set ${envText} for the daemon` });
  return rows;
}

/** Install and sign-in commands for one agent, each copyable. */
export function AgentSetupCard({ agent }: { agent: Pick<AgentOut, "display_name" | "setup" | "glyph"> }) {
  return (
    <section className="setup-card" aria-label={`Set up ${agent.display_name}`}>
      <h2 className="setup-title">
        <AgentMark glyph={agent.glyph} />
        {agent.display_name}
        <span className="chip">not on PATH</span>
      </h2>
      <ol className="setup-steps">
        {setupRows(agent.setup).map((s, i) => (
          <li key={i} className="setup-step">
            <span className="setup-label">{s.label}</span>
            {s.command !== undefined && (
              <span className="setup-command">
                <code>{s.command}</code>
                <CopyButton text={s.command} label={`Copy: ${s.command}`} compact />
              </span>
            )}
            {s.note && <span className="setup-note">{withCode(s.note)}</span>}
          </li>
        ))}
      </ol>
      {agent.setup.docs_url && (
        <a className="setup-docs" href={agent.setup.docs_url} target="_blank" rel="noreferrer">
          {agent.display_name}'s documentation
        </a>
      )}
    </section>
  );
}

/** "A", "A or B", "A, B or C": the agents the daemon offers, named as it names them. */
function eitherOf(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? "an agent";
  return `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

/** `backticked` parts as <code>, the rest as text. */
function withCode(text: string) {
  return text.split("`").map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part));
}

/** The retention default, said once up front so an archived conversation is never a surprise. */
export function RetentionNote() {
  // Straight through the route table: the Settings API module stays in the Settings chunk.
  const api = useApi();
  const retention = useQuery({ queryKey: ["settings", "retention"], queryFn: () => api.call(RETENTION_ROUTES.getRetention), staleTime: 60_000 });
  const r = retention.data;
  if (!r || r.archive_after_days === null) return null;
  const days = (n: number) => `${n} day${n === 1 ? "" : "s"}`;
  return (
    <p className="retention-note" role="note">
      Conversations idle for {days(r.archive_after_days)} are archived
      {r.delete_after_days !== null ? `, and deleted ${days(r.delete_after_days)} later` : ""}.{" "}
      <Link to="/settings/data">Keep them forever in Settings → Data</Link>
    </p>
  );
}

/** No agent can run: say per agent how to install and sign in; the page checks again when the owner comes back. */
export function FirstRun({ agents, checking, onCheck }: { agents: readonly AgentOut[]; checking: boolean; onCheck: () => void }) {
  return (
    <div className="first-run">
      <h1 className="draft-title">Install an agent to start</h1>
      <p className="draft-meta">
        Coffer drives {eitherOf(agents.map((a) => a.display_name))} on this machine. Install one on the daemon's PATH and sign in; this page checks
        again by itself when you come back to it.
      </p>
      <div className="setup-cards">
        {agents.map((a) => (
          <AgentSetupCard key={a.agent_key} agent={a} />
        ))}
      </div>
      <button type="button" className="btn" onClick={onCheck} disabled={checking}>
        <Icon name={checking ? "spinner" : "refresh"} size={14} />
        {checking ? "Checking…" : "Check again"}
      </button>
    </div>
  );
}
