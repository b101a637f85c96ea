import { holdLabel, type PendingPreview, type QueueHold } from "@coffer/protocol";
import { DndContext, PointerSensor, closestCenter, useSensor, useSensors, type Announcements, type DragEndEvent, type Modifier } from "@dnd-kit/core";
import { SortableContext, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useRef, useState } from "react";
import { Icon } from "../../ui/icons.js";
import { moveId, shownOrder, type LocalOrder } from "./queue-order.js";

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
  /** The whole new order, by id; resolves false when the server refused it (the tray puts it back). */
  readonly onReorder: (ids: readonly string[]) => void | Promise<boolean>;
  readonly onResume: () => void;
  readonly onClear: () => void;
}

/** Rows only move up and down. */
const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 });

/**
 * The pending queue above the composer: one row per item, with edit, remove and reorder —
 * by dragging the grip (mouse or touch, @dnd-kit) or by the arrow keys on it (Alt+arrows
 * anywhere on the row). Each move is announced, shows at once, and goes to the server as the
 * whole new order; a refused one snaps back.
 */
export function QueueTray({ pending, paused, hold = null, editingId, onCancelEdit, onEdit, onRemove, onSendNow, onReorder, onResume, onClear }: QueueTrayProps) {
  // Hooks first: the tray hides itself (below) when nothing waits.
  const [said, setSaid] = useState("");
  const [local, setLocal] = useState<LocalOrder | null>(null);
  const list = useRef<HTMLUListElement>(null);
  // A few pixels of travel before a drag starts, so a tap or click on the grip stays a tap.
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }));
  if (pending.length === 0) return null;

  const rows = shownOrder(pending, local);
  const ids = rows.map((r) => r.id);
  const position = (id: unknown) => ids.indexOf(String(id)) + 1;

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
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over) move(String(active.id), ids.indexOf(String(over.id)));
  };
  // Spoken by @dnd-kit's live region while a row is dragged by pointer or finger.
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up queued message ${position(active.id)}`,
    onDragOver: () => undefined,
    onDragEnd: ({ active, over }) =>
      over && over.id !== active.id ? `Moved to position ${position(over.id)} of ${rows.length}` : "Dropped in place",
    onDragCancel: () => "Move cancelled",
  };
  const confirmClear = () => {
    if (rows.length < 3 || window.confirm(`Remove all ${rows.length} queued messages?`)) onClear();
  };

  return (
    <section className={`queue ${paused ? "queue-paused" : ""}`} aria-label="Message queue">
      <div className="queue-head">
        {paused ? (
          <span className="queue-title">
            <Icon name="pause" size={14} />
            {hold ? `${holdLabel(hold)} · ${rows.length} waiting` : `Queue paused — ${rows.length} waiting`}
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
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        modifiers={[verticalOnly]}
        onDragEnd={onDragEnd}
        accessibility={{ announcements, screenReaderInstructions: { draggable: "" } }}
      >
        <SortableContext items={ids} strategy={verticalListSortingStrategy}>
          <ul ref={list} className="queue-list" aria-label={`Queued messages (${rows.length})`}>
            {rows.map((item, i) => (
              <QueueRow
                key={item.id}
                item={item}
                index={i}
                editing={item.id === editingId}
                onStep={(delta) => step(i, delta)}
                onCancelEdit={onCancelEdit}
                onEdit={onEdit}
                onRemove={onRemove}
                onSendNow={onSendNow}
              />
            ))}
          </ul>
        </SortableContext>
      </DndContext>
      <span id="queue-move-hint" className="sr-only">
        Drag to move, or use the up and down arrow keys
      </span>
      <span className="sr-only" role="status">
        {said}
      </span>
    </section>
  );
}

interface RowProps {
  readonly item: PendingPreview;
  readonly index: number;
  readonly editing: boolean;
  readonly onStep: (delta: number) => void;
  readonly onCancelEdit?: () => void;
  readonly onEdit: (id: string) => void;
  readonly onRemove: (id: string) => void;
  readonly onSendNow?: (id: string) => void;
}

/** One queued message; the grip is the drag handle and the keyboard handle. */
function QueueRow({ item, index: i, editing, onStep, onCancelEdit, onEdit, onRemove, onSendNow }: RowProps) {
  // No KeyboardSensor: the grip's own arrow keys move a row one place per press (and announce it).
  const { setNodeRef, setActivatorNodeRef, listeners, transform, transition, isDragging } = useSortable({ id: item.id });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={`queue-row ${editing ? "queue-row-editing" : ""} ${isDragging ? "queue-row-dragging" : ""}`}
      aria-current={editing ? "true" : undefined}
      onKeyDown={(e) => {
        if (e.altKey && (e.key === "ArrowUp" || e.key === "ArrowDown")) {
          e.preventDefault();
          onStep(e.key === "ArrowUp" ? -1 : 1);
        }
      }}
    >
      <button
        ref={setActivatorNodeRef}
        type="button"
        className="icon-btn queue-grip"
        data-queue-grip
        aria-label={`Move queued message ${i + 1}`}
        aria-describedby="queue-move-hint"
        {...listeners}
        onKeyDown={(e) => {
          if (e.key === "ArrowUp" || e.key === "ArrowDown") {
            e.preventDefault();
            e.stopPropagation(); // the row's Alt+arrows would move it a second time
            onStep(e.key === "ArrowUp" ? -1 : 1);
          }
        }}
      >
        <Icon name="grip" size={14} />
      </button>
      <span className="queue-text">
        {item.text}
        {item.truncated ? "…" : ""}
      </span>
      {editing ? (
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
      {onSendNow && !editing && (
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
  );
}
