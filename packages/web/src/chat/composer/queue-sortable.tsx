import { DndContext, PointerSensor, closestCenter, useSensor, useSensors, type Announcements, type DragEndEvent, type Modifier } from "@dnd-kit/core";
import { SortableContext, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { QueueRow, type QueueRowProps } from "./queue-row.js";

/**
 * Rows only move up and down, and stay inside the list's box: a row dragged past its edge
 * would make the list taller and scroll it under the finger.
 */
const withinList: Modifier = ({ transform, draggingNodeRect: row, containerNodeRect: list }) => {
  let y = transform.y;
  if (row && list) y = Math.min(Math.max(y, list.top - row.top), list.bottom - row.bottom);
  return { ...transform, x: 0, y };
};

export interface SortableRowsProps {
  /** The rows as shown, in order (each row's id is its item's). */
  readonly rows: readonly QueueRowProps[];
  /** Move `id` to index `to`; false when nothing moved. */
  readonly onMove: (id: string, to: number) => boolean;
}

/**
 * Drag to reorder (loaded on demand: the chat's main bundle does without @dnd-kit until a
 * queue shows). The PointerSensor takes mouse and touch from the grip only, after 4 px of
 * travel so a tap on it stays a tap. No KeyboardSensor: the grip's arrow keys move a row one
 * place per press (queue-tray.tsx). Pointer drags speak through @dnd-kit's live region.
 */
export default function SortableRows({ rows, onMove }: SortableRowsProps) {
  const ids = rows.map((r) => r.item.id);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }));
  const position = (id: unknown) => ids.indexOf(String(id)) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up queued message ${position(active.id)}`,
    onDragOver: () => undefined,
    onDragEnd: ({ active, over }) => (over && over.id !== active.id ? `Moved to position ${position(over.id)} of ${ids.length}` : "Dropped in place"),
    onDragCancel: () => "Move cancelled",
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over) onMove(String(active.id), ids.indexOf(String(over.id)));
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      modifiers={[withinList]}
      onDragEnd={onDragEnd}
      accessibility={{ announcements, screenReaderInstructions: { draggable: "" } }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        {rows.map((row) => (
          <SortableRow key={row.item.id} {...row} />
        ))}
      </SortableContext>
    </DndContext>
  );
}

/** A row that can be dragged: @dnd-kit's refs, listeners and transform on the plain row. */
function SortableRow(props: QueueRowProps) {
  const { setNodeRef, setActivatorNodeRef, listeners, transform, transition, isDragging } = useSortable({ id: props.item.id });
  return (
    <QueueRow
      {...props}
      drag={{
        setNodeRef,
        setHandleRef: setActivatorNodeRef,
        handle: (listeners ?? {}) as Record<string, (event: never) => void>,
        style: { transform: CSS.Translate.toString(transform), transition },
        dragging: isDragging,
      }}
    />
  );
}
