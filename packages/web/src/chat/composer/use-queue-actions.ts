import type { PendingPreview } from "@coffer/protocol";
import { useCallback, useState } from "react";
import { useApi } from "../../api/api-context.js";
import { ApiError } from "../../api/client.js";
import { useToast } from "../../ui/toasts.js";

/**
 * Queue edits go to the server as the whole new order (PUT keeps ids for existing items).
 * Editing pulls an item out and into the composer; sending it again queues it at the tail.
 * Editing a paused queue keeps it paused: only Resume (or a new send) runs it.
 */
export function useQueueActions(conversationId: string, pending: readonly PendingPreview[]) {
  const api = useApi();
  const toast = useToast();
  const [pull, setPull] = useState<{ text: string; nonce: number } | null>(null);
  const [editing, setEditing] = useState<{ item: PendingPreview; index: number } | null>(null);

  const put = useCallback(
    (next: readonly PendingPreview[], resume = false) =>
      // A preview's text is only the start of the message: send its id alone, so the server keeps the whole text.
      api.setPending(conversationId, next.map(({ id, text, truncated }) => (truncated ? { id } : { id, text })), resume).catch((err: unknown) =>
        toast({ tone: "error", text: `Could not update the queue: ${err instanceof ApiError ? err.message : String(err)}` }),
      ),
    [api, conversationId, toast],
  );

  const edit = useCallback(
    (id: string) => {
      const index = pending.findIndex((p) => p.id === id);
      const preview = pending[index];
      if (!preview) return;
      void (async () => {
        // Never edit (or put back) a preview: fetch the whole text first.
        let item = preview;
        if (preview.truncated) {
          const whole = (await api.pending(conversationId).catch(() => null))?.pending.find((p) => p.id === id);
          if (!whole) {
            toast({ tone: "error", text: "Could not load the whole queued message; it may have started already." });
            return;
          }
          item = { ...whole, truncated: false, length: whole.text.length };
        }
        setEditing({ item, index });
        setPull({ text: item.text, nonce: Date.now() });
        void put(pending.filter((p) => p.id !== id));
      })();
    },
    [api, conversationId, pending, put, toast],
  );

  return {
    pull,
    editing,
    edit,
    pullLast: () => {
      const last = pending[pending.length - 1];
      if (last) edit(last.id);
    },
    /** Put the item being edited back where it was, unchanged. */
    cancelEdit: () => {
      if (!editing) return;
      const next = [...pending];
      next.splice(Math.min(editing.index, next.length), 0, editing.item);
      setEditing(null);
      setPull({ text: "", nonce: Date.now() });
      void put(next);
    },
    doneEditing: () => setEditing(null),
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
