import type { ConversationOut } from "@coffer/protocol";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useApi } from "../../api/api-context.js";
import { keys, useAgentConfig } from "../../api/queries.js";
import { ConfirmDialog } from "../../ui/confirm-dialog.js";
import { AgentMarkOf } from "../../api/agent-glyph.js";
import { Icon } from "../../ui/icons.js";
import { Menu } from "../../ui/menu.js";
import { useToast } from "../../ui/toasts.js";
import { ModelCombobox } from "../draft/model-combobox.js";
import { bindingTitle, viaLabel } from "../history/date-groups.js";
import { useConversationActions } from "../history/use-conversation-actions.js";
import { HistoryToggle } from "../history/history-toggle.js";
import { PlanGauges } from "./plan-gauges.js";
import { ContextGauge } from "./context-gauge.js";

interface Props {
  readonly conversation: ConversationOut;
  readonly agentName: string;
  readonly historyOpen: boolean;
  readonly onOpenHistory: () => void;
}

/** Title (F2 or double-click renames), channel and agent chips, the model for the next turn, and the `⋯` menu. */
export function ThreadHeader({ conversation: c, agentName, historyOpen, onOpenHistory }: Props) {
  const api = useApi();
  const client = useQueryClient();
  const toast = useToast();
  const actions = useConversationActions();
  const config = useAgentConfig(c.id);
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const endRename = (value: string | null) => {
    setRenaming(false);
    const title = value?.trim();
    if (title && title !== c.title) void actions.rename(c, title);
  };
  const setModel = (model: string | null) =>
    api.setModel(c.id, model).then(
      (cfg) => {
        client.setQueryData(keys.agentConfig(c.id), cfg);
        toast({ text: model ? `Model set to ${model} from the next turn` : "Model reset to the agent's default" });
      },
      (err: Error) => toast({ tone: "error", text: `Could not set the model: ${err.message}` }),
    );

  return (
    <header className="thread-header">
      <HistoryToggle historyOpen={historyOpen} onOpenHistory={onOpenHistory} />
      {renaming ? (
        <input
          className="input title-input"
          aria-label="Conversation title"
          autoFocus
          defaultValue={c.title}
          onFocus={(e) => e.currentTarget.select()}
          onKeyDown={(e) => {
            if (e.key === "Enter") endRename(e.currentTarget.value);
            if (e.key === "Escape") endRename(null);
          }}
          onBlur={(e) => endRename(e.currentTarget.value)}
        />
      ) : (
        <h1
          className="thread-title"
          tabIndex={0}
          title="Double-click or F2 to rename"
          onDoubleClick={() => setRenaming(true)}
          onKeyDown={(e) => e.key === "F2" && setRenaming(true)}
        >
          {c.title}
        </h1>
      )}
      {c.archived_at && <span className="chip">Archived</span>}
      {c.channel_binding && (
        <span
          className="chip"
          title={bindingTitle(c.channel_binding)}
        >
          {viaLabel(c.channel_binding)}
        </span>
      )}
      <span className="agent-chip">
        <AgentMarkOf agentKey={c.agent_key} />
        {agentName}
      </span>
      <ContextGauge conversationId={c.id} />
      <PlanGauges agentKey={c.agent_key} />
      <span className="header-spacer" />
      {config.data && <ModelCombobox agentKey={c.agent_key} value={config.data.model} onCommit={(m) => void setModel(m)} hint="Applies from the next turn" />}
      <Menu
        label="More actions"
        items={[
          { label: "Rename", onSelect: () => setRenaming(true) },
          c.archived_at ? { label: "Restore", onSelect: () => void actions.restore(c) } : { label: "Archive", onSelect: () => void actions.archive(c) },
          { label: "Delete", onSelect: () => setDeleting(true), danger: true },
        ]}
      />
      <ConfirmDialog
        open={deleting}
        title="Delete conversation?"
        body={`"${c.title}" and all its messages will be removed. This cannot be undone.`}
        confirmLabel="Delete"
        onCancel={() => setDeleting(false)}
        onConfirm={() => {
          setDeleting(false);
          void actions.remove(c);
        }}
      />
    </header>
  );
}
