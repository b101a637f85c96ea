import { editorWhere, type PendingPreview } from "@coffer/protocol";
import { Suspense, type CSSProperties, type Ref } from "react";
import { lazyPart } from "../../ui/lazy-part.js";
import { Icon } from "../../ui/icons.js";

// A scheduled row's time and its editor (send later): the composer's later chunk.
const LaterTime = lazyPart(() => import("./later-controls.js").then((m) => ({ default: m.LaterTime })));

/** What the drag layer hands a row once it has loaded (queue-sortable.tsx). */
export interface RowDrag {
  readonly setNodeRef: Ref<HTMLLIElement>;
  readonly setHandleRef: Ref<HTMLButtonElement>;
  /** The pointer listeners that start a drag from the grip (mouse or finger). */
  readonly handle: Record<string, (event: never) => void>;
  readonly style: CSSProperties;
  readonly dragging: boolean;
}

export interface QueueRowProps {
  readonly item: PendingPreview;
  readonly index: number;
  readonly editing: boolean;
  /** This page edits it and the queue has stopped in front of it (no turn runs). */
  readonly waiting?: boolean;
  /** Move one place up (-1) or down (+1): the grip's arrow keys, Alt+arrows on the row. */
  readonly onStep: (delta: number) => void;
  readonly onCancelEdit?: () => void;
  readonly onEdit: (id: string) => void;
  readonly onRemove: (id: string) => void;
  readonly onSendNow?: (id: string) => void;
  /** Where a scheduled row's time is changed: its conversation and the queue as shown. */
  readonly later?: { readonly conversationId: string; readonly pending: readonly PendingPreview[] };
}

/** One queued message; the grip is the drag handle (when `drag` is given) and the keyboard handle. */
export function QueueRow({ item, index: i, editing, waiting = false, onStep, onCancelEdit, onEdit, onRemove, onSendNow, later, drag }: QueueRowProps & { readonly drag?: RowDrag }) {
  return (
    <li
      ref={drag?.setNodeRef}
      style={drag?.style}
      className={`queue-row ${editing ? "queue-row-editing" : ""} ${!editing && item.editing ? "queue-row-held" : ""} ${drag?.dragging ? "queue-row-dragging" : ""}`}
      aria-current={editing ? "true" : undefined}
      onKeyDown={(e) => {
        if (e.altKey && (e.key === "ArrowUp" || e.key === "ArrowDown")) {
          e.preventDefault();
          onStep(e.key === "ArrowUp" ? -1 : 1);
        }
      }}
    >
      <button
        ref={drag?.setHandleRef}
        type="button"
        className="icon-btn queue-grip"
        data-queue-grip
        aria-label={`Move queued message ${i + 1}`}
        aria-describedby={drag ? "queue-drag-hint" : "queue-move-hint"}
        {...drag?.handle}
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
      {item.attachments?.length ? (
        <span className="queue-files" aria-label={`Files of queued message ${i + 1}`}>
          {item.attachments.map((a) => (
            <span key={a.id} className="queue-file" title={a.name}>
              {a.name}
            </span>
          ))}
        </span>
      ) : null}
      {item.later && later && (
        <Suspense fallback={null}>
          <LaterTime conversationId={later.conversationId} item={{ ...item, later: item.later }} pending={later.pending} />
        </Suspense>
      )}
      {editing ? (
        <span className="queue-editing">
          <span className="queue-editing-note">
            {waiting ? "Waiting for your edit" : "Editing — it keeps its place; the queue waits for it"}
          </span>
          <button type="button" className="link-btn" onClick={onCancelEdit}>
            Cancel edit
          </button>
        </span>
      ) : item.editing ? (
        // Another tab, or another surface, holds it: the queue waits for that edit.
        <span className="queue-editing">
          <span className="queue-editing-note">{item.editing.by === "web" ? "Being edited in another tab" : `Being edited ${editorWhere(item.editing.by)}`}</span>
        </span>
      ) : (
        <button type="button" className="icon-btn" aria-label={`Edit queued message ${i + 1}`} title="Edit" onClick={() => onEdit(item.id)}>
          <Icon name="pencil" size={14} />
        </button>
      )}
      {onSendNow && !editing && !item.editing && (
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
