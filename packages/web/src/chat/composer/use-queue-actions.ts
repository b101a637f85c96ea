import type { PendingItem } from "@coffer/protocol";
import { useCallback, useState } from "react";
import { useApi } from "../../api/api-context.js";
import { ApiError } from "../../api/client.js";
import { useToast } from "../../ui/toasts.js";

/**
 * Queue edits go to the server as the whole new order (PUT keeps ids for existing items).
 * Editing pulls an item out and into the composer; sending it again queues it at the tail.
 * Editing a paused queue keeps it paused: only Resume (or a new send) runs it.
 */
export function useQueueActions(conversationId: string, pending: readonly PendingItem[]) {
  const api = useApi();
  const toast = useToast();
  const [pull, setPull] = useState<{ text: string; nonce: number } | null>(null);
  const [editing, setEditing] = useState<{ item: PendingItem; index: number } | null>(null);

  const put = useCallback(
    (next: readonly PendingItem[], resume = false) =>
      api.setPending(conversationId, next.map(({ id, text }) => ({ id, text })), resume).catch((err: unknown) =>
        toast({ tone: "error", text: `Could not update the queue: ${err instanceof ApiError ? err.message : String(err)}` }),
      ),
    [api, conversationId, toast],
  );

  const edit = useCallback(
    (id: string) => {
      const index = pending.findIndex((p) => p.id === id);
      const item = pending[index];
      if (!item) return;
      setEditing({ item, index });
      setPull({ text: item.text, nonce: Date.now() });
      void put(pending.filter((p) => p.id !== id));
    },
    [pending, put],
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
