import { ROUTES, type AgentOut } from "@coffer/protocol";
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { useApi } from "../../api/api-context.js";
import { CopyButton } from "../../ui/copy-button.js";
import { AgentMark, Icon } from "../../ui/icons.js";
import { AGENT_SETUP } from "./agent-setup.js";

/** Install and sign-in commands for one agent, each copyable. */
export function AgentSetupCard({ agent }: { agent: Pick<AgentOut, "agent_key" | "display_name"> }) {
  const setup = AGENT_SETUP[agent.agent_key];
  if (!setup) return null;
  return (
    <section className="setup-card" aria-label={`Set up ${agent.display_name}`}>
      <h2 className="setup-title">
        <AgentMark agentKey={agent.agent_key} />
        {agent.display_name}
        <span className="chip">not on PATH</span>
      </h2>
      <ol className="setup-steps">
        {setup.steps.map((s) => (
          <li key={s.label} className="setup-step">
            <span className="setup-label">{s.label}</span>
            <span className="setup-command">
              <code>{s.command}</code>
              <CopyButton text={s.command} label={`Copy: ${s.command}`} compact />
            </span>
            {s.note && <span className="setup-note">{withCode(s.note)}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** `backticked` parts as <code>, the rest as text. */
function withCode(text: string) {
  return text.split("`").map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part));
}

/** The retention default, said once up front so an archived conversation is never a surprise. */
export function RetentionNote() {
  // Straight through the route table: the Settings API module stays in the Settings chunk.
  const api = useApi();
  const retention = useQuery({ queryKey: ["settings", "retention"], queryFn: () => api.call(ROUTES.getRetention), staleTime: 60_000 });
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
        Coffer drives Claude Code or Codex on this machine. Install one on the daemon's PATH and sign in; this page checks
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
