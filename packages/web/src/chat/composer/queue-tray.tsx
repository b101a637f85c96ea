import { holdLabel, type PendingPreview, type QueueHold } from "@coffer/protocol";
import { useRef, useState } from "react";
import { Icon } from "../../ui/icons.js";

export interface QueueTrayProps {
  readonly pending: readonly PendingPreview[];
  readonly paused: boolean;
  /** A plan-limit hold: the queue resumes by itself at `until`; Resume runs it now. */
  readonly hold?: QueueHold | null;
  /** The row open in the composer, if any: it stays in the queue until the edit is saved. */
  readonly editingId?: string | null;
  readonly onCancelEdit?: () => void;
  readonly onEdit: (id: string) => void;
  readonly onRemove: (id: string) => void;
  /** "Send now": steer this message into the running turn (or run it now when idle). */
  readonly onSendNow?: (id: string) => void;
  readonly onMove: (id: string, to: number) => void;
  readonly onResume: () => void;
  readonly onClear: () => void;
}

/** The pending queue above the composer: one row per item, with edit, remove and keyboard reorder. */
export function QueueTray({ pending, paused, hold = null, editingId, onCancelEdit, onEdit, onRemove, onSendNow, onMove, onResume, onClear }: QueueTrayProps) {
  // Hooks first: the tray hides itself (below) when nothing waits.
  const [said, setSaid] = useState("");
  const list = useRef<HTMLUListElement>(null);
  if (pending.length === 0) return null;

  const move = (index: number, delta: number) => {
    const to = index + delta;
    const item = pending[index];
    if (!item || to < 0 || to >= pending.length) return;
    onMove(item.id, to);
    setSaid(`Moved to position ${to + 1} of ${pending.length}`);
    // Keep focus on the moved row's grip after the server's queue_changed re-renders it.
    requestAnimationFrame(() => list.current?.querySelectorAll<HTMLElement>(".queue-grip")[to]?.focus());
  };
  const confirmClear = () => {
    if (pending.length < 3 || window.confirm(`Remove all ${pending.length} queued messages?`)) onClear();
  };

  return (
    <section className={`queue ${paused ? "queue-paused" : ""}`} aria-label="Message queue">
      <div className="queue-head">
        {paused ? (
          <span className="queue-title">
            <Icon name="pause" size={14} />
            {hold ? `${holdLabel(hold)} · ${pending.length} waiting` : `Queue paused — ${pending.length} waiting`}
          </span>
        ) : (
          <span className="queue-title">Queued · {pending.length}</span>
        )}
        <span className="queue-head-actions">
          {paused && (
            <button type="button" className="btn btn-primary btn-sm" onClick={onResume}>
              <Icon name="play" size={12} />
              {hold ? "Resume now" : "Resume"}
            </button>
          )}
          <button type="button" className="btn btn-ghost btn-sm" onClick={confirmClear}>
            Clear
          </button>
        </span>
      </div>
      <ul ref={list} className="queue-list" aria-label={`Queued messages (${pending.length})`}>
        {pending.map((item, i) => (
          <li
            key={item.id}
            className={`queue-row ${item.id === editingId ? "queue-row-editing" : ""}`}
            aria-current={item.id === editingId ? "true" : undefined}
            onKeyDown={(e) => {
              if (e.altKey && (e.key === "ArrowUp" || e.key === "ArrowDown")) {
                e.preventDefault();
                move(i, e.key === "ArrowUp" ? -1 : 1);
              }
            }}
          >
            <button
              type="button"
              className="icon-btn queue-grip"
              aria-label={`Move queued message ${i + 1}`}
              aria-describedby="queue-move-hint"
              onKeyDown={(e) => {
                if (e.key === "ArrowUp" || e.key === "ArrowDown") {
                  e.preventDefault();
                  move(i, e.key === "ArrowUp" ? -1 : 1);
                }
              }}
            >
              <Icon name="grip" size={14} />
            </button>
            <span className="queue-text">
              {item.text}
              {item.truncated ? "…" : ""}
            </span>
            {item.id === editingId ? (
              <span className="queue-editing">
                <span className="queue-editing-note">Editing — saving moves it to the end of the queue</span>
                <button type="button" className="link-btn" onClick={onCancelEdit}>
                  Cancel edit
                </button>
              </span>
            ) : (
              <button type="button" className="icon-btn" aria-label={`Edit queued message ${i + 1}`} title="Edit" onClick={() => onEdit(item.id)}>
                <Icon name="pencil" size={14} />
              </button>
            )}
            {onSendNow && editingId !== item.id && (
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                aria-label={`Send queued message ${i + 1} now`}
                title="Send now: steer it into the running turn"
                onClick={() => onSendNow(item.id)}
              >
                Send now
              </button>
            )}
            <button type="button" className="icon-btn" aria-label={`Remove queued message ${i + 1}`} title="Remove" onClick={() => onRemove(item.id)}>
              <Icon name="x" size={14} />
            </button>
          </li>
        ))}
      </ul>
      <span id="queue-move-hint" className="sr-only">
        Use the up and down arrow keys to move
      </span>
      <span className="sr-only" role="status">
        {said}
      </span>
    </section>
  );
}
