import type { ConversationOut } from "@coffer/protocol";
import { memo, useState } from "react";
import { Link } from "react-router";
import { AgentMarkOf } from "../../api/agent-glyph.js";
import { Icon } from "../../ui/icons.js";
import { Menu } from "../../ui/menu.js";
import { relativeTime, viaLabel } from "./date-groups.js";
import { SearchSnippet } from "./search-snippet.js";

interface Props {
  readonly conversation: ConversationOut;
  readonly current: boolean;
  /** For an archived row: when retention deletes it ("deleted in 12 days"); a second line under the title, so it never eats the title. */
  readonly notice?: string | null;
  readonly renaming: boolean;
  readonly onRenameStart: () => void;
  readonly onRenameEnd: (title: string | null) => void;
  readonly onArchiveToggle: () => void;
  readonly onDelete: () => void;
}

/** One history row: a link with a `⋯` menu; rename happens inline (Enter saves, Esc cancels). */
export const HistoryRow = memo(function HistoryRow({ conversation: c, current, renaming, notice, ...on }: Props) {
  const [draft, setDraft] = useState(c.title);
  if (renaming) {
    return (
      <div className="history-row history-row-current">
        <input
          className="input input-inline"
          aria-label="Conversation title"
          autoFocus
          defaultValue={c.title}
          onFocus={(e) => e.currentTarget.select()}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") on.onRenameEnd(draft.trim() && draft.trim() !== c.title ? draft.trim() : null);
            if (e.key === "Escape") {
              e.preventDefault(); // Esc ends the rename only, never the drawer around it
              on.onRenameEnd(null);
            }
          }}
          onBlur={() => on.onRenameEnd(draft.trim() && draft.trim() !== c.title ? draft.trim() : null)}
        />
      </div>
    );
  }
  return (
    <div
      className={`history-row ${current ? "history-row-current" : ""} ${c.match ? "history-row-hit" : ""} ${notice && !c.running && !c.match ? "history-row-notice" : ""}`}
    >
      <Link
        // A search hit opens the conversation at the matching message (?m=), which is flashed.
        to={`/chat/${encodeURIComponent(c.id)}${c.match?.message_id ? `?m=${encodeURIComponent(c.match.message_id)}` : ""}`}
        className="history-link"
        aria-current={current ? "page" : undefined}
        data-conversation-id={c.id}
        onDoubleClick={(e) => (e.preventDefault(), on.onRenameStart())}
      >
        <AgentMarkOf agentKey={c.agent_key} size={14} />
        <span className="history-title">{c.title}</span>
        {c.channel_binding && (
          // A narrow row: the word chip left the title two letters; the icon says it, the header spells it out.
          <span className="chip chip-icon" title={viaLabel(c.channel_binding)}>
            <Icon name="phone" size={12} />
            <span className="sr-only">{viaLabel(c.channel_binding)}</span>
          </span>
        )}
        {c.running ? (
          <span className="running-dot" title="Running">
            <span className="sr-only">Running</span>
          </span>
        ) : (
          <time className="history-time" dateTime={c.updated_at}>
            {relativeTime(c.updated_at)}
          </time>
        )}
        {c.match ? (
          <SearchSnippet match={c.match} />
        ) : (
          notice &&
          !c.running && (
            <span className="history-expiry" title={`Retention ${notice} (Settings → Data)`}>
              {notice}
            </span>
          )
        )}
      </Link>
      <Menu
        className="history-menu"
        label={`More actions for ${c.title}`}
        items={[
          { label: "Rename", onSelect: on.onRenameStart },
          { label: c.archived_at ? "Restore" : "Archive", onSelect: on.onArchiveToggle },
          { label: "Delete", onSelect: on.onDelete, danger: true },
        ]}
      />
    </div>
  );
});
