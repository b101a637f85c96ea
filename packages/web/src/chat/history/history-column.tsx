import type { ConversationOut } from "@coffer/protocol";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, useState } from "react";
import { Link, useMatch } from "react-router";
import { useConversationList } from "../../api/queries.js";
import { ConfirmDialog } from "../../ui/confirm-dialog.js";
import { Icon } from "../../ui/icons.js";
import { useIsTouch } from "../../ui/use-media-query.js";
import { groupByDate } from "./date-groups.js";
import { deletionNotice, useRetention } from "./deletion-notice.js";
import { HistoryRow } from "./history-row.js";
import { useConversationActions } from "./use-conversation-actions.js";
import { FOCUS_SEARCH_EVENT } from "../shortcuts/chat-shortcuts.js";

const ROW = 40;
/** A row on a touch screen: room for a 44 px ⋯ button and a finger (styles/touch.css). */
const TOUCH_ROW = 48;
const GROUP = 28;
/** A search result: the title, then a two-line snippet of the matching message. */
const ROW_WITH_SNIPPET = 76;
/** An archived row: the title, then when retention deletes it on a line of its own. */
const ROW_WITH_NOTICE = 56;

interface Props {
  readonly onCollapse: () => void;
  /** "sheet": the phone's drawer, whose head button closes it instead of collapsing a column. */
  readonly variant?: "column" | "sheet";
  /** A link in the history was followed (a row, New chat): the drawer closes. */
  readonly onPick?: () => void;
}

/** The collapsible history: search on the server, Active | Archived, date groups, virtualised and paged. */
export function HistoryColumn({ onCollapse, variant = "column", onPick }: Props) {
  const [archived, setArchived] = useState(false);
  const [typed, setTyped] = useState("");
  const [q, setQ] = useState("");
  useEffect(() => {
    const t = setTimeout(() => setQ(typed.trim()), 150);
    return () => clearTimeout(t);
  }, [typed]);
  const list = useConversationList(archived, q);
  // Archived rows say when retention deletes them: never a surprise (docs/decisions.md, issue 15).
  const retention = useRetention(archived);
  const deleteAfter = retention.data?.delete_after_days ?? null;
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.conversations) ?? [], [list.data]);
  const entries = useMemo(() => groupByDate(rows), [rows]);
  // The column sits beside the routes, not inside ":id": read the open conversation from the path.
  const openId = useMatch("/chat/:id")?.params.id;
  const actions = useConversationActions();
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ConversationOut | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const focus = () => searchBox.current?.focus();
    window.addEventListener(FOCUS_SEARCH_EVENT, focus);
    return () => window.removeEventListener(FOCUS_SEARCH_EVENT, focus);
  }, []);

  const row = useIsTouch() ? TOUCH_ROW : ROW;
  const noticeFor = (c: ConversationOut) => (archived ? deletionNotice(c.archived_at, deleteAfter) : null);
  const virtual = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => {
      const e = entries[i];
      if (e?.kind !== "row") return GROUP;
      if (e.conversation.match) return ROW_WITH_SNIPPET;
      return noticeFor(e.conversation) && !e.conversation.running ? ROW_WITH_NOTICE : row;
    },
    getItemKey: (i) => entries[i]!.key,
    overscan: 10,
  });
  // Search results (snippet) and archived rows (deletion notice, once retention answers) are taller: sizes are re-read.
  useEffect(() => virtual.measure(), [q, archived, deleteAfter, row, virtual]);
  const items = virtual.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (lastIndex >= entries.length - 5 && list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
  }, [lastIndex, entries.length, list]);

  /** ↑/↓ move between rows, F2 renames, Delete asks to delete (Enter opens: rows are links). */
  const onKeyDown = (e: React.KeyboardEvent) => {
    const link = (e.target as HTMLElement).closest<HTMLElement>(".history-link");
    const id = link?.dataset.conversationId;
    if (!link || !id) return;
    const at = entries.findIndex((x) => x.key === id);
    const conv = rows.find((c) => c.id === id);
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      let next = at;
      do next += e.key === "ArrowDown" ? 1 : -1;
      while (entries[next]?.kind === "group");
      const target = entries[next];
      if (!target) return;
      virtual.scrollToIndex(next);
      requestAnimationFrame(() => scroller.current?.querySelector<HTMLElement>(`[data-conversation-id="${CSS.escape(target.key)}"]`)?.focus());
    } else if (e.key === "F2" && conv) {
      e.preventDefault();
      setRenaming(conv.id);
    } else if (e.key === "Delete" && conv) {
      e.preventDefault();
      setDeleting(conv);
    }
  };

  return (
    <aside
      className="history"
      aria-label="Conversation history"
      onClick={(e) => {
        if (onPick && (e.target as Element).closest("a[href]")) onPick();
      }}
    >
      <div className="history-head">
        <Link to="/chat" className="btn btn-ghost new-chat">
          <Icon name="plus" />
          New chat
        </Link>
        {variant === "sheet" ? (
          <button type="button" className="icon-btn" aria-label="Close history" title="Close history (Esc)" onClick={onCollapse} data-sheet-initial-focus>
            <Icon name="x" />
          </button>
        ) : (
          <button type="button" className="icon-btn" aria-label="Collapse history" title="Collapse history (Ctrl+B)" onClick={onCollapse}>
            <Icon name="panelClose" />
          </button>
        )}
      </div>
      <div className="history-tools">
        <label className="search">
          <Icon name="search" size={14} />
          <input
            ref={searchBox}
            type="search"
            className="search-input"
            aria-label="Search conversations"
            placeholder="Search"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
        </label>
        <div role="radiogroup" aria-label="Show" className="segmented">
          {([false, true] as const).map((value) => (
            <button
              key={String(value)}
              type="button"
              role="radio"
              aria-checked={archived === value}
              className="segment"
              onClick={() => setArchived(value)}
            >
              {value ? "Archived" : "Active"}
            </button>
          ))}
        </div>
      </div>
      <div ref={scroller} className="history-scroll">
        {list.isError && (
          <p className="history-empty" role="alert">
            Could not load conversations.{" "}
            <button type="button" className="btn btn-sm" onClick={() => void list.refetch()}>
              Retry
            </button>
          </p>
        )}
        {list.isSuccess && rows.length === 0 && <HistoryEmpty archived={archived} q={q} onClear={() => setTyped("")} />}
        <nav aria-label="Conversations">
          <ul className="history-list" style={{ height: virtual.getTotalSize() }} onKeyDown={onKeyDown}>
            {items.map((item) => {
              const entry = entries[item.index]!;
              const style = { transform: `translateY(${item.start}px)`, height: item.size };
              if (entry.kind === "group")
                return (
                  <li key={item.key} className="history-group" style={style} aria-hidden="true">
                    {entry.label}
                  </li>
                );
              const c = entry.conversation;
              return (
                <li key={item.key} className="history-item" style={style}>
                  <HistoryRow
                    conversation={c}
                    current={c.id === openId}
                    notice={noticeFor(c)}
                    renaming={renaming === c.id}
                    onRenameStart={() => setRenaming(c.id)}
                    onRenameEnd={(title) => {
                      setRenaming(null);
                      if (title) void actions.rename(c, title);
                    }}
                    onArchiveToggle={() => void (c.archived_at ? actions.restore(c) : actions.archive(c))}
                    onDelete={() => setDeleting(c)}
                  />
                </li>
              );
            })}
          </ul>
        </nav>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete conversation?"
        body={`"${deleting?.title ?? ""}" and all its messages will be removed. This cannot be undone.`}
        confirmLabel="Delete"
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) void actions.remove(deleting);
          setDeleting(null);
        }}
      />
    </aside>
  );
}

function HistoryEmpty({ archived, q, onClear }: { archived: boolean; q: string; onClear: () => void }) {
  if (q)
    return (
      <p className="history-empty">
        No conversations match "{q}".{" "}
        <button type="button" className="btn btn-sm" onClick={onClear}>
          Clear search
        </button>
      </p>
    );
  if (archived) return <p className="history-empty">Nothing is archived.</p>;
  return (
    <p className="history-empty">
      No conversations yet.{" "}
      <Link to="/chat" className="btn btn-sm">
        New chat
      </Link>
    </p>
  );
}
