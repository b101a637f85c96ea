import type { PendingPreview } from "@coffer/protocol";
import { useCallback, useEffect, useRef, useState } from "react";
import { useApi } from "../../api/api-context.js";
import { ApiError } from "../../api/client.js";
import { useToast } from "../../ui/toasts.js";
import type { EditingMessage } from "./composer.js";

/** A queue row as the page sends it back: a (possibly truncated) preview, or new text. */
type QueueRow = PendingPreview | { readonly text: string };

/** This page's edit hold on a queued message (issue 22 B): renewed while the edit is open. */
interface Hold {
  readonly pendingId: string;
  holdId: string;
  timer: ReturnType<typeof setInterval> | null;
}

/**
 * Queue edits go to the server as the whole new order (PUT keeps ids for existing items).
 * A preview whose text was truncated in the live frame goes back as its id alone, so the
 * server keeps the whole text.
 *
 * Editing a queued message holds the queue in front of it (docs/decisions.md, "Editing holds
 * the queue"): opening the edit takes a hold on the server, renewed every quarter of its lease
 * while the edit is open, so the running turn may end without the message starting as it was.
 * Saving is one PUT that puts the new text in the message's own place and releases the hold;
 * Esc, Cancel edit or leaving the conversation releases it with the queue as it was; a closing
 * tab releases it with a keepalive request, and if even that is lost the lease lapses on the
 * daemon. A failed save reopens the edit with the typed text, so nothing typed is lost.
 */
export function useQueueActions(conversationId: string, pending: readonly PendingPreview[]) {
  const api = useApi();
  const toast = useToast();
  const [editing, setEditing] = useState<EditingMessage | null>(null);
  const hold = useRef<Hold | null>(null);
  /** The message open for editing now, for answers that arrive after the edit changed. */
  const openId = useRef<string | null>(null);

  const put = useCallback(
    (next: readonly QueueRow[], resume = false, holdId?: string): Promise<boolean> =>
      api
        .setPending(
          conversationId,
          next.map((row) => ("id" in row ? (row.truncated ? { id: row.id } : { id: row.id, text: row.text }) : { text: row.text })),
          resume,
          // What this page showed: a message another surface queued since then stays queued.
          pending.map((p) => p.id),
          holdId,
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

  /** Stop renewing; `release` also tells the daemon (a save releases it itself). */
  const endHold = useCallback(
    (how: "release" | "saved" | "leave") => {
      const h = hold.current;
      if (!h) return;
      if (h.timer) clearInterval(h.timer);
      hold.current = null;
      if (how === "release") void api.releasePendingHold(conversationId, h.pendingId, h.holdId).catch(() => undefined);
      if (how === "leave") api.releasePendingHoldOnLeave(conversationId, h.pendingId, h.holdId);
    },
    [api, conversationId],
  );

  const takeHold = useCallback(
    (id: string) => {
      api.holdPending(conversationId, id).then(
        (taken) => {
          if (openId.current !== id || hold.current) {
            // The edit ended before the hold arrived: hand it straight back.
            void api.releasePendingHold(conversationId, id, taken.hold_id).catch(() => undefined);
            return;
          }
          const h: Hold = { pendingId: id, holdId: taken.hold_id, timer: null };
          h.timer = setInterval(() => {
            api.holdPending(conversationId, id, h.holdId).then(
              (renewed) => (h.holdId = renewed.hold_id),
              (err: unknown) => {
                // Gone (it ran or was removed: the page says so) or taken by another editor after
                // ours lapsed: either way there is nothing left to renew.
                if (err instanceof ApiError && (err.code === "PENDING_NOT_FOUND" || err.code === "PENDING_BEING_EDITED")) {
                  if (hold.current === h) endHold("saved");
                  if (err.code === "PENDING_BEING_EDITED") toast({ tone: "error", text: `The queue no longer waits for this edit: ${err.message}` });
                }
                // A network blip: the next renewal tries again, well within the lease.
              },
            );
          }, Math.max(250, Math.floor(taken.lease_ms / 4)));
          hold.current = h;
        },
        (err: unknown) => {
          if (openId.current !== id) return;
          if (err instanceof ApiError && err.code === "PENDING_BEING_EDITED") {
            // Someone else is editing it: two edits of one message would lose one of them.
            openId.current = null;
            setEditing(null);
            toast({ tone: "error", text: `Could not edit it: ${err.message}` });
          } else if (!(err instanceof ApiError && err.code === "PENDING_NOT_FOUND")) {
            toast({ tone: "error", text: `The queue could not be held for this edit, so it may run before you save: ${err instanceof ApiError ? err.message : String(err)}` });
          }
        },
      );
    },
    [api, conversationId, endHold, toast],
  );

  const open = useCallback((message: EditingMessage) => {
    openId.current = message.id;
    setEditing(message);
  }, []);

  const edit = useCallback(
    (id: string) => {
      const preview = pending.find((p) => p.id === id);
      if (!preview) return;
      if (hold.current && hold.current.pendingId !== id) endHold("release");
      openId.current = id;
      // The hold first, at once: the turn may end while the whole text is on its way.
      if (!hold.current) takeHold(id);
      if (!preview.truncated) {
        open({ id: preview.id, text: preview.text });
        return;
      }
      // Never edit a preview: fetch the whole text first.
      void api
        .pending(conversationId)
        .catch(() => null)
        .then((queue) => {
          if (openId.current !== id) return;
          const whole = queue?.pending.find((p) => p.id === id);
          if (whole) open({ id: whole.id, text: whole.text });
          else {
            openId.current = null;
            endHold("release");
            toast({ tone: "error", text: "Could not load the whole queued message; it may have started already." });
          }
        });
    },
    [api, conversationId, endHold, open, pending, takeHold, toast],
  );

  const saveEdit = useCallback(
    (text: string) => {
      if (!editing) return;
      const opened = editing;
      const h = hold.current?.pendingId === opened.id ? hold.current : null;
      openId.current = null;
      setEditing(null);
      const stillQueued = pending.some((p) => p.id === opened.id);
      // In its own place (the hold kept it there); if it already left the queue (it ran, or was
      // removed), the text is queued as a new message at the tail.
      const next: QueueRow[] = stillQueued
        ? pending.map((p) => (p.id === opened.id ? { ...p, text, truncated: false, length: [...text].length } : p))
        : [...pending, { text }];
      void put(next, true, h?.holdId).then((ok) => {
        if (ok) {
          if (hold.current === h) endHold("saved");
          return;
        }
        // Refused: the edit reopens with what was typed, still holding the queue.
        open({ id: opened.id, text });
      });
    },
    [editing, endHold, open, pending, put],
  );

  const cancelEdit = useCallback(() => {
    openId.current = null;
    setEditing(null);
    endHold("release");
  }, [endHold]);

  // Leaving the conversation ends the edit; a closing tab sends its release with keepalive.
  useEffect(() => {
    const leaving = () => endHold("leave");
    window.addEventListener("pagehide", leaving);
    return () => {
      window.removeEventListener("pagehide", leaving);
      openId.current = null;
      endHold("release");
    };
  }, [endHold]);

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
    cancelEdit,
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
