import type { PendingPreview } from "@coffer/protocol";
import { useCallback, useState } from "react";
import { useApi } from "../../api/api-context.js";
import { ApiError } from "../../api/client.js";
import { useToast } from "../../ui/toasts.js";
import type { EditingMessage } from "./composer.js";

/** A queue row as the page sends it back: a (possibly truncated) preview, or new text. */
type QueueRow = PendingPreview | { readonly text: string };

/**
 * Queue edits go to the server as the whole new order (PUT keeps ids for existing items).
 * A preview whose text was truncated in the live frame goes back as its id alone, so the
 * server keeps the whole text. Editing opens a queued message in the composer WITHOUT
 * touching the server queue: Esc, or leaving the conversation, ends the edit and nothing
 * changed. Saving is one PUT that drops the original and appends the new text at the tail
 * (the spec's "an edited message re-queues at the tail"), and like a send it resumes a
 * paused queue. A failed save reopens the edit with the typed text, so nothing typed is
 * lost (docs/decisions.md).
 */
export function useQueueActions(conversationId: string, pending: readonly PendingPreview[]) {
  const api = useApi();
  const toast = useToast();
  const [editing, setEditing] = useState<EditingMessage | null>(null);

  const put = useCallback(
    (next: readonly QueueRow[], resume = false): Promise<boolean> =>
      api
        .setPending(
          conversationId,
          next.map((row) => ("id" in row ? (row.truncated ? { id: row.id } : { id: row.id, text: row.text }) : { text: row.text })),
          resume,
          // What this page showed: a message another surface queued since then stays queued.
          pending.map((p) => p.id),
        )
        .then(
          () => true,
          (err: unknown) => {
            toast({ tone: "error", text: `Could not update the queue: ${err instanceof ApiError ? err.message : String(err)}` });
            return false;
          },
        ),
    [api, conversationId, pending, toast],
  );

  const edit = useCallback(
    (id: string) => {
      const preview = pending.find((p) => p.id === id);
      if (!preview) return;
      if (!preview.truncated) {
        setEditing({ id: preview.id, text: preview.text });
        return;
      }
      // Never edit a preview: fetch the whole text first.
      void api
        .pending(conversationId)
        .catch(() => null)
        .then((queue) => {
          const whole = queue?.pending.find((p) => p.id === id);
          if (whole) setEditing({ id: whole.id, text: whole.text });
          else toast({ tone: "error", text: "Could not load the whole queued message; it may have started already." });
        });
    },
    [api, conversationId, pending, toast],
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
    /** The tray's new order, by id (it may be ahead of `pending` while an earlier move is saved). */
    reorder: (ids: readonly string[]): Promise<boolean> => {
      const byId = new Map(pending.map((p) => [p.id, p]));
      return put(ids.map((id) => byId.get(id)).filter((p): p is PendingPreview => p !== undefined));
    },
    resume: () => void put(pending, true),
    sendNow: (id: string) => {
      api.steerPending(conversationId, id).catch((err: unknown) => {
        toast({ tone: "error", text: `Could not send it now: ${err instanceof ApiError ? err.message : String(err)}` });
      });
    },
    clear: () => void put([]),
  };
}
