import { holdLabel, type PendingPreview, type QueueHold } from "@coffer/protocol";
import { Suspense, useRef, useState } from "react";
import { lazyPart } from "../../ui/lazy-part.js";
import { Icon } from "../../ui/icons.js";
import { moveId, shownOrder, type LocalOrder } from "./queue-order.js";
import { QueueRow, type QueueRowProps } from "./queue-row.js";

// Dragging (@dnd-kit) loads on demand, warmed while the page is idle: until it is there the
// rows are the same rows, reorderable by keyboard.
const loadSortable = () => import("./queue-sortable.js");
const SortableRows = lazyPart(loadSortable);
if (typeof window !== "undefined") (window.requestIdleCallback ?? ((f: () => void) => setTimeout(f, 500)))(() => void loadSortable());

export interface QueueTrayProps {
  readonly pending: readonly PendingPreview[];
  readonly paused: boolean;
  /** A plan-limit hold: the queue resumes by itself at `until`; Resume runs it now. */
  readonly hold?: QueueHold | null;
  /** The row open in the composer, if any: it stays in the queue until the edit is saved. */
  readonly editingId?: string | null;
  /** The queue has stopped at its head because it is being edited: here ("mine") or on another page. */
  readonly stoppedAtEdit?: "mine" | "elsewhere" | null;
  readonly onCancelEdit?: () => void;
  readonly onEdit: (id: string) => void;
  readonly onRemove: (id: string) => void;
  /** "Send now": steer this message into the running turn (or run it now when idle). */
  readonly onSendNow?: (id: string) => void;
  /** The whole new order, by id; resolves false when the server refused it (the tray puts it back). */
  readonly onReorder: (ids: readonly string[]) => void | Promise<boolean>;
  readonly onResume: () => void;
  readonly onClear: () => void;
  /** The conversation, for a scheduled row's time (send later) to be changed in. */
  readonly conversationId?: string;
}

/**
 * The pending queue above the composer: one row per item, with edit, remove and reorder —
 * by dragging the grip (mouse or touch, @dnd-kit) or by the arrow keys on it (Alt+arrows
 * anywhere on the row). Each move is announced, shows at once, and goes to the server as the
 * whole new order; a refused one snaps back.
 */
export function QueueTray({ pending, paused, hold = null, editingId, stoppedAtEdit = null, onCancelEdit, onEdit, onRemove, onSendNow, onReorder, onResume, onClear, conversationId }: QueueTrayProps) {
  // Hooks first: the tray hides itself (below) when nothing waits.
  const [said, setSaid] = useState("");
  const [local, setLocal] = useState<LocalOrder | null>(null);
  const list = useRef<HTMLUListElement>(null);
  if (pending.length === 0) return null;

  const rows = shownOrder(pending, local);
  const ids = rows.map((r) => r.id);

  /** Move `id` to `to` (0-based): shown now, saved as the whole order, put back if refused. */
  const move = (id: string, to: number): boolean => {
    const next = moveId(ids, id, to);
    if (!next) return false;
    setLocal({ base: pending, ids: next });
    const saved = onReorder(next);
    if (saved instanceof Promise) void saved.then((ok) => ok || setLocal(null));
    return true;
  };
  const step = (index: number, delta: number) => {
    const item = rows[index];
    if (!item || !move(item.id, index + delta)) return;
    setSaid(`Moved to position ${index + delta + 1} of ${rows.length}`);
    // Keep focus on the moved row's grip (reordering the DOM drops it).
    requestAnimationFrame(() => list.current?.querySelectorAll<HTMLElement>("[data-queue-grip]")[index + delta]?.focus());
  };
  const rowProps: QueueRowProps[] = rows.map((item, i) => ({
    item,
    index: i,
    editing: item.id === editingId,
    waiting: i === 0 && stoppedAtEdit === "mine",
    onStep: (delta: number) => step(i, delta),
    onCancelEdit,
    onEdit,
    onRemove,
    onSendNow,
    later: conversationId ? { conversationId, pending } : undefined,
  }));
  const confirmClear = () => {
    if (rows.length < 3 || window.confirm(`Remove all ${rows.length} queued messages?`)) onClear();
  };

  return (
    <section className={`queue ${paused ? "queue-paused" : ""} ${stoppedAtEdit && !paused ? "queue-waiting" : ""}`} aria-label="Message queue">
      <div className="queue-head">
        {paused ? (
          <span className="queue-title">
            <Icon name="pause" size={14} />
            {hold ? `${holdLabel(hold)} · ${rows.length} waiting` : `Queue paused — ${rows.length} waiting`}
          </span>
        ) : stoppedAtEdit ? (
          <span className="queue-title queue-title-waiting">
            <Icon name="pencil" size={14} />
            {stoppedAtEdit === "mine" ? "Waiting for your edit" : "Waiting for an edit elsewhere"} · {rows.length} queued
          </span>
        ) : (
          <span className="queue-title">Queued · {rows.length}</span>
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
      <ul ref={list} className="queue-list" aria-label={`Queued messages (${rows.length})`}>
        <Suspense fallback={rowProps.map((row) => <QueueRow key={row.item.id} {...row} />)}>
          <SortableRows rows={rowProps} onMove={move} />
        </Suspense>
      </ul>
      {/* The grip says "drag" only once dragging has loaded. */}
      <span id="queue-move-hint" className="sr-only">
        Use the up and down arrow keys to move
      </span>
      <span id="queue-drag-hint" className="sr-only">
        Drag to move, or use the up and down arrow keys
      </span>
      <span className="sr-only" role="status">
        {said}
      </span>
    </section>
  );
}
