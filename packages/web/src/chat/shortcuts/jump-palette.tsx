import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { useConversationList } from "../../api/queries.js";
import { FOCUS_COMPOSER } from "../composer/composer-focus.js";
import { trapTab } from "../../ui/focus-trap.js";
import { AgentMarkOf } from "../../api/agent-glyph.js";
import { relativeTime } from "../history/date-groups.js";
import { SearchSnippet, snippetParts } from "../history/search-snippet.js";
import { queryWords, rankJumpResults, titleHighlights, type PaletteEntry } from "./palette-ranking.js";

const SHOWN = 12;

/**
 * ⌘/Ctrl+K: type to filter, ↑/↓ to choose, Enter to open, Esc to close. Titles filter at
 * once from what is loaded; the daemon's search (titles and messages) joins when it answers,
 * so a word from inside a conversation finds it too — ranked after every title that holds the
 * words, with the message's snippet (palette-ranking.ts).
 */
export function JumpPalette({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [typed, setTyped] = useState("");
  const [q, setQ] = useState("");
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const listId = useId();
  useEffect(() => {
    const t = setTimeout(() => setQ(typed.trim()), 120);
    return () => clearTimeout(t);
  }, [typed]);
  useEffect(() => input.current?.focus(), []);
  const recent = useConversationList(false, "");
  const searched = useConversationList(false, q);
  const results = useMemo<PaletteEntry[]>(() => {
    const all = recent.data?.pages.flatMap((p) => p.conversations) ?? [];
    const server = typed.trim() && q === typed.trim() && searched.isSuccess ? searched.data.pages.flatMap((p) => p.conversations) : null;
    return rankJumpResults(typed, all, server, SHOWN);
  }, [recent.data, searched.data, searched.isSuccess, q, typed]);
  const words = useMemo(() => queryWords(typed), [typed]);
  useEffect(() => setActive(0), [typed]);

  const open = (entry: PaletteEntry | undefined) => {
    if (!entry) return;
    const { conversation: c, match } = entry;
    onClose();
    // A hit inside the conversation opens it at that message, as the history's search does.
    const at = match?.message_id ? `?m=${encodeURIComponent(match.message_id)}` : "";
    void navigate(`/chat/${encodeURIComponent(c.id)}${at}`, { state: FOCUS_COMPOSER });
  };
  const optionId = (i: number) => `${listId}-${i}`;

  return (
    <div className="palette-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={dialog}
        className="palette"
        role="dialog"
        aria-modal="true"
        aria-label="Jump to a conversation"
        // Modal: Tab and Shift+Tab stay inside while it is open (focus goes back to the opener on close).
        onKeyDown={(e) => trapTab(e, dialog.current)}
      >
        <input
          ref={input}
          className="palette-input"
          role="combobox"
          aria-label="Jump to a conversation"
          aria-expanded="true"
          aria-controls={listId}
          aria-activedescendant={results[active] ? optionId(active) : undefined}
          placeholder="Jump to a conversation…"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "ArrowDown" || e.key === "ArrowUp") {
              e.preventDefault();
              const n = results.length;
              if (n) setActive((a) => (a + (e.key === "ArrowDown" ? 1 : n - 1)) % n);
            } else if (e.key === "Enter") {
              e.preventDefault();
              open(results[active]);
            } else if (e.key === "Escape") {
              e.preventDefault();
              onClose();
            }
          }}
        />
        {results.length ? (
          <ul id={listId} className="palette-list" role="listbox" aria-label="Conversations">
            {results.map((entry, i) => {
              const c = entry.conversation;
              return (
                <li
                  key={c.id}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === active}
                  className={`palette-item ${entry.match ? "palette-item-hit" : ""}`}
                  onMouseMove={() => setActive(i)}
                  onClick={() => open(entry)}
                >
                  <AgentMarkOf agentKey={c.agent_key} size={14} />
                  <span className="palette-title">
                    {entry.titleMatch
                      ? snippetParts(c.title, titleHighlights(c.title, words)).map((p, k) =>
                          p.hit ? (
                            <mark key={k} className="hit">
                              {p.text}
                            </mark>
                          ) : (
                            <span key={k}>{p.text}</span>
                          ),
                        )
                      : c.title}
                  </span>
                  <time className="history-time" dateTime={c.updated_at}>
                    {relativeTime(c.updated_at)}
                  </time>
                  {entry.match && <SearchSnippet match={entry.match} />}
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="palette-empty">{typed.trim() ? `No conversation matches "${typed.trim()}".` : "No conversations yet."}</p>
        )}
      </div>
    </div>
  );
}
