import type { PendingItem, PendingItemIn } from "@coffer/protocol";
import { useCallback, useState } from "react";
import { useApi } from "../../api/api-context.js";
import { ApiError } from "../../api/client.js";
import { useToast } from "../../ui/toasts.js";
import type { EditingMessage } from "./composer.js";

/**
 * Queue edits go to the server as the whole new order (PUT keeps ids for existing items).
 * Editing opens a queued message in the composer WITHOUT touching the server queue: Esc,
 * or leaving the conversation, ends the edit and nothing changed. Saving is one PUT that
 * drops the original and appends the new text at the tail (the spec's "an edited message
 * re-queues at the tail"), and like a send it resumes a paused queue. A failed save reopens
 * the edit with the typed text, so nothing typed is lost (docs/decisions.md).
 */
export function useQueueActions(conversationId: string, pending: readonly PendingItem[]) {
  const api = useApi();
  const toast = useToast();
  const [editing, setEditing] = useState<EditingMessage | null>(null);

  const put = useCallback(
    (next: readonly PendingItemIn[], resume = false): Promise<boolean> =>
      api.setPending(conversationId, next.map(({ id, text }) => (id === undefined ? { text } : { id, text })), resume).then(
        () => true,
        (err: unknown) => {
          toast({ tone: "error", text: `Could not update the queue: ${err instanceof ApiError ? err.message : String(err)}` });
          return false;
        },
      ),
    [api, conversationId, toast],
  );

  const edit = useCallback(
    (id: string) => {
      const item = pending.find((p) => p.id === id);
      if (item) setEditing({ id: item.id, text: item.text });
    },
    [pending],
  );

  const saveEdit = useCallback(
    (text: string) => {
      if (!editing) return;
      const opened = editing;
      setEditing(null);
      // If the original already left the queue (it ran, or was removed), the text is queued as new.
      void put([...pending.filter((p) => p.id !== opened.id), { text }], true).then((ok) => {
        if (!ok) setEditing({ id: opened.id, text });
      });
    },
    [editing, pending, put],
  );

  return {
    editing,
    /** The message being edited has left the server queue (it ran or was removed) meanwhile. */
    editingGone: editing !== null && !pending.some((p) => p.id === editing.id),
    edit,
    pullLast: () => {
      const last = pending[pending.length - 1];
      if (last) edit(last.id);
    },
    saveEdit,
    /** End the edit; the server queue was never changed, so the message is still where it was. */
    cancelEdit: () => setEditing(null),
    remove: (id: string) => void put(pending.filter((p) => p.id !== id)),
    move: (id: string, to: number) => {
      const next = pending.filter((p) => p.id !== id);
      const item = pending.find((p) => p.id === id);
      if (!item) return;
      next.splice(to, 0, item);
      void put(next);
    },
    resume: () => void put(pending, true),
    clear: () => void put([]),
  };
}
