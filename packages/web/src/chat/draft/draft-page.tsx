import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { useApi } from "../../api/api-context.js";
import { ApiError } from "../../api/client.js";
import { keys, patchLists, useAgents } from "../../api/queries.js";
import { AgentMark, Icon } from "../../ui/icons.js";
import type { ChatLayoutProps } from "../chat-layout-props.js";
import { Composer } from "../composer/composer.js";
import { HistoryToggle } from "../history/history-toggle.js";
import { NEW_CONVERSATION_DRAFT } from "../composer/draft-store.js";
import { ModelCombobox } from "./model-combobox.js";

const LAST_AGENT = "coffer.lastAgent";

/** A new chat: pick the agent (and optionally a model and folder); the first send creates and sends. */
export function DraftPage({ historyOpen, onOpenHistory }: ChatLayoutProps) {
  const api = useApi();
  const client = useQueryClient();
  const navigate = useNavigate();
  const agents = useAgents();
  const [picked, setPicked] = useState<string | null>(() => localStorage.getItem(LAST_AGENT));
  const [model, setModel] = useState<string | null>(null);
  const [cwd, setCwd] = useState("");
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pull, setPull] = useState<{ text: string; nonce: number } | null>(null);

  const list = agents.data?.agents ?? [];
  const available = list.filter((a) => a.available);
  const agent = list.find((a) => a.agent_key === picked && a.available) ?? available[0] ?? null;

  const start = async (text: string) => {
    if (!agent) return;
    setCreating(true);
    setError(null);
    try {
      const config: Record<string, unknown> = {};
      if (model) config.model = model;
      if (cwd.trim()) config.cwd = cwd.trim();
      const conv = await api.create({ agent_key: agent.agent_key, agent_config: Object.keys(config).length ? config : null });
      client.setQueryData(keys.conversation(conv.id), conv);
      patchLists(client, { upsert: conv });
      localStorage.setItem(LAST_AGENT, agent.agent_key);
      await api.send(conv.id, text, crypto.randomUUID());
      void navigate(`/chat/${encodeURIComponent(conv.id)}`);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
      setCreating(false);
      setPull({ text, nonce: Date.now() }); // never lose what was typed
    }
  };

  return (
    <section className="thread" aria-label="New chat">
      <header className="thread-header draft-bar">
        <HistoryToggle historyOpen={historyOpen} onOpenHistory={onOpenHistory} />
        <label className="picker">
          <span className="sr-only">Agent</span>
          {agent && <AgentMark agentKey={agent.agent_key} />}
          <select
            className="select"
            aria-label="Agent"
            value={agent?.agent_key ?? ""}
            onChange={(e) => setPicked(e.target.value)}
          >
            {list.length === 0 && <option value="">{agents.isPending ? "Loading agents…" : "No agents"}</option>}
            {list.map((a) => (
              <option key={a.agent_key} value={a.agent_key} disabled={!a.available}>
                {a.display_name} — {a.available ? "Ready" : "Not installed — not on PATH"}
              </option>
            ))}
          </select>
        </label>
        <ModelCombobox value={model} onCommit={setModel} />
        <label className="cwd-field">
          <Icon name="folder" size={14} />
          <input
            className="input cwd-input"
            aria-label="Working directory"
            placeholder="Working directory (optional)"
            value={cwd}
            spellCheck={false}
            onChange={(e) => setCwd(e.target.value)}
          />
        </label>
      </header>
      <div className="draft-body">
        {agent ? (
          <>
            <AgentMark agentKey={agent.agent_key} size={32} />
            <h1 className="draft-title">What should {agent.display_name} work on?</h1>
            <p className="draft-meta">
              {cwd.trim() ? `In ${cwd.trim()}` : "In the agent's default workspace"} · {model ? `model ${model}` : "the agent's own default model"}
            </p>
          </>
        ) : agents.isSuccess ? (
          <div className="draft-empty">
            <h1 className="draft-title">No agent is installed</h1>
            <p className="draft-meta">Install Claude Code (`claude`) or Codex (`codex`) on the daemon's PATH, then check again.</p>
            <button type="button" className="btn" onClick={() => void agents.refetch()}>
              Check again
            </button>
          </div>
        ) : null}
      </div>
      <div className="thread-foot">
        {error && (
          <div className="banner banner-danger" role="alert">
            <Icon name="alert" />
            <span className="banner-text">Could not start the conversation: {error}</span>
          </div>
        )}
        <Composer
          agentName={agent?.display_name ?? "the agent"}
          running={false}
          stopping={false}
          paused={false}
          disabled={creating || !agent}
          pull={pull}
          draftKey={NEW_CONVERSATION_DRAFT}
          onSend={(text) => void start(text)}
          onStop={() => undefined}
        />
      </div>
    </section>
  );
}
