import type { AttachmentOut } from "@coffer/protocol";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { useApi } from "../../api/api-context.js";
import { ApiError } from "../../api/client.js";
import { keys, patchLists, useAgents, useConversationList } from "../../api/queries.js";
import { AgentMark, Icon } from "../../ui/icons.js";
import type { ChatLayoutProps } from "../chat-layout-props.js";
import { Composer } from "../composer/composer.js";
import { HistoryToggle } from "../history/history-toggle.js";
import { loadDraft, loadDraftFiles, NEW_CONVERSATION_DRAFT, saveDraft, saveDraftFiles } from "../composer/draft-store.js";
import { FOCUS_COMPOSER, useComposerFocusRequest } from "../composer/composer-focus.js";
import { holdOnly } from "../composer/held-messages.js";
import { useToast } from "../../ui/toasts.js";
import { AgentSetupCard, FirstRun, RetentionNote } from "./first-run.js";
import { usePrewarm } from "../composer/use-prewarm.js";
import { lastAgent, rememberAgent } from "./last-agent.js";
import { ModelCombobox } from "./model-combobox.js";

/** A new chat: pick the agent (and optionally a model and folder); the first send creates and sends. */
export function DraftPage({ historyOpen, onOpenHistory }: ChatLayoutProps) {
  const api = useApi();
  const client = useQueryClient();
  const navigate = useNavigate();
  const agents = useAgents();
  const [picked, setPicked] = useState<string | null>(lastAgent);
  const [model, setModel] = useState<string | null>(null);
  const [cwd, setCwd] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pull, setPull] = useState<{ text: string; nonce: number; files?: readonly AttachmentOut[] } | null>(null);

  const list = agents.data?.agents ?? [];
  const workspace = agents.data?.workspace;
  const available = list.filter((a) => a.available);
  const missing = list.filter((a) => !a.available);
  const agent = list.find((a) => a.agent_key === picked && a.available) ?? available[0] ?? null;
  const conversations = useConversationList(false, "");
  const firstRun = conversations.isSuccess && conversations.data.pages[0]?.conversations.length === 0;
  const { refetch } = agents;

  // An agent installed while the page was in another tab (or window) shows up when the owner
  // comes back: availability is the daemon's PATH, read again on every GET /chat/agents.
  const anyMissing = missing.length > 0;
  useEffect(() => {
    if (!anyMissing) return;
    const check = () => {
      if (document.visibilityState === "visible") void refetch();
    };
    document.addEventListener("visibilitychange", check);
    window.addEventListener("focus", check);
    return () => {
      document.removeEventListener("visibilitychange", check);
      window.removeEventListener("focus", check);
    };
  }, [anyMissing, refetch]);

  // The first send creates the conversation; messages sent before its page opens are follow-ups
  // (the composer stays usable meanwhile: typing at once must not go nowhere).
  const followUps = useRef<{ clientId: string; text: string; attachments?: readonly AttachmentOut[] }[]>([]);
  const created = useRef<string | null>(null);
  const inFlight = useRef(false);
  const navigated = useRef(false);
  const toast = useToast();
  const focusRequest = useComposerFocusRequest();

  // Text typed into this box after the first send belongs to the new conversation: it moves to
  // that conversation's draft as this page goes (its composer reads it when it appears).
  useLayoutEffect(
    () => () => {
      const id = created.current;
      if (!id) return;
      const typed = loadDraft(NEW_CONVERSATION_DRAFT);
      if (typed) saveDraft(id, typed);
      saveDraft(NEW_CONVERSATION_DRAFT, "");
      const attached = loadDraftFiles(NEW_CONVERSATION_DRAFT);
      if (attached.length) saveDraftFiles(id, attached);
      saveDraftFiles(NEW_CONVERSATION_DRAFT, []);
    },
    [],
  );

  /** A follow-up once the conversation's page is on its way: sent from here, never dropped. */
  const sendLate = (id: string, text: string, files: readonly AttachmentOut[]) => {
    api.send(id, text, crypto.randomUUID(), "queue", files.map((f) => f.id)).catch((err: unknown) => {
      saveDraft(id, [loadDraft(id), text].filter(Boolean).join("\n\n"));
      if (files.length) saveDraftFiles(id, [...loadDraftFiles(id), ...files]);
      toast({ tone: "error", text: `Could not send your follow-up (${err instanceof Error ? err.message : String(err)}); it is back in the message box.` });
    });
  };

  const start = async (text: string, files: readonly AttachmentOut[]) => {
    if (!agent) return;
    if (created.current && navigated.current) return sendLate(created.current, text, files);
    if (inFlight.current) {
      followUps.current.push({ clientId: crypto.randomUUID(), text, ...(files.length ? { attachments: files } : {}) });
      return;
    }
    inFlight.current = true;
    setError(null);
    try {
      const config: Record<string, unknown> = {};
      if (model) config.model = model;
      if (cwd.trim()) config.cwd = cwd.trim();
      const conv = await api.create({ agent_key: agent.agent_key, agent_config: Object.keys(config).length ? config : null });
      client.setQueryData(keys.conversation(conv.id), conv);
      patchLists(client, { upsert: conv });
      rememberAgent(agent.agent_key);
      created.current = conv.id;
      await api.send(conv.id, text, crypto.randomUUID(), "queue", files.map((f) => f.id));
      // Follow-ups go with the page's own unacknowledged sends: the conversation's view sends
      // them on mount, in order, each with its key (held-messages.ts).
      if (followUps.current.length) holdOnly(conv.id, followUps.current);
      navigated.current = true;
      void navigate(`/chat/${encodeURIComponent(conv.id)}`, { state: FOCUS_COMPOSER });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
      inFlight.current = false;
      created.current = null; // the next send starts over, as it did before
      // Never lose what was typed: the first message, any follow-up and what is in the box now.
      const back = [text, ...followUps.current.map((f) => f.text), loadDraft(NEW_CONVERSATION_DRAFT)].filter(Boolean).join("\n\n");
      const filesBack = [...files, ...followUps.current.flatMap((f) => f.attachments ?? [])];
      followUps.current = [];
      setPull({ text: back, nonce: Date.now(), files: filesBack });
    }
  };

  return (
    <section className="thread" aria-label="New chat">
      <header className="thread-header draft-bar">
        <HistoryToggle historyOpen={historyOpen} onOpenHistory={onOpenHistory} />
        <label className="picker">
          <span className="sr-only">Agent</span>
          {agent && <AgentMark glyph={agent.glyph} />}
          <select
            className="select"
            aria-label="Agent"
            value={agent?.agent_key ?? ""}
            disabled={!agent}
            onChange={(e) => setPicked(e.target.value)}
          >
            {!agent && <option value="">{agents.isPending ? "Loading agents…" : "No agent installed"}</option>}
            {list.map((a) => (
              <option key={a.agent_key} value={a.agent_key} disabled={!a.available}>
                {a.display_name} — {a.available ? "Ready" : "Not installed — not on PATH"}
              </option>
            ))}
          </select>
        </label>
        <ModelCombobox agentKey={agent?.agent_key ?? null} value={model} onCommit={setModel} disabled={!agent} />
        <label className="cwd-field">
          <Icon name="folder" size={14} />
          <input
            className="input cwd-input"
            aria-label="Working directory"
            placeholder="Working directory (optional)"
            value={cwd}
            disabled={!agent}
            spellCheck={false}
            onChange={(e) => setCwd(e.target.value)}
          />
        </label>
      </header>
      <div className="draft-body">
        {agent ? (
          <>
            <AgentMark glyph={agent.glyph} size={32} />
            <h1 className="draft-title">What should {agent.display_name} work on?</h1>
            <p className="draft-meta">
              {cwd.trim() ? `In ${cwd.trim()}` : workspace ? `In ${workspace}, the default workspace` : "In the agent's default workspace"} ·{" "}
              {model ? `model ${model}` : "the agent's own default model"}
            </p>
            {missing.map((a) => (
              <details key={a.agent_key} className="setup-more">
                <summary>{a.display_name} is not installed — how to set it up</summary>
                <AgentSetupCard agent={a} />
              </details>
            ))}
          </>
        ) : agents.isSuccess ? (
          <FirstRun agents={list} checking={agents.isFetching} onCheck={() => void refetch()} />
        ) : agents.isError ? (
          <div className="draft-empty" role="alert">
            <h1 className="draft-title">Could not list the agents</h1>
            <p className="draft-meta">{agents.error.message}</p>
            <button type="button" className="btn" onClick={() => void refetch()}>
              Try again
            </button>
          </div>
        ) : null}
        {firstRun && (agent || agents.isSuccess) && <RetentionNote />}
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
          disabled={!agent}
          disabledHint={agent ? undefined : "Install an agent to send a message"}
          pull={pull}
          draftKey={NEW_CONVERSATION_DRAFT}
          focusRequest={focusRequest}
          onSend={(text, files) => void start(text, files)}
          onTyping={usePrewarm(agent?.available ? agent.agent_key : null, { cwd, model })}
          onStop={() => undefined}
        />
      </div>
    </section>
  );
}
