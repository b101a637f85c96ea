import { useCallback, useEffect, useRef, useState } from "react";
import type { AttachmentOut, Delivery } from "@coffer/protocol";
import { useApi } from "../../api/api-context.js";
import type { OutgoingMessage } from "../thread/outgoing-bubble.js";
import { useLive } from "../live/use-live.js";
import { loadUnsent, saveUnsent } from "./draft-store.js";
import { heldMessages, holdOnly } from "./held-messages.js";

/** The view's outbox when it mounts: this page's own sends resume; storage's older ones wait for review. */
function initialOutbox(conversationId: string): OutgoingMessage[] {
  const mine = heldMessages(conversationId);
  const ids = new Set(mine.map((m) => m.clientId));
  const earlier = loadUnsent(conversationId).filter((m) => !ids.has(m.clientId));
  return [...earlier.map((m) => ({ ...m, state: "earlier" as const })), ...mine.map((m) => ({ ...m, state: "sending" as const }))];
}

/**
 * Sends with an idempotency key and an optimistic echo: "Sending…" after 1 s without an
 * answer, "Not sent · Retry" on failure. The echo goes once the message is a turn or queued.
 * Until the daemon acknowledges it, the message is also kept in localStorage so a reload
 * does not lose it. But storage is the origin's, not the owner's: a message read back from
 * it is never sent on its own (a squatter on the port could have written it). It shows as
 * "from an earlier visit" with Send (same key: at most one message results) and Discard.
 * Only what this page sent itself, held in memory, is sent again when the view comes back.
 */
export function useOutgoing(conversationId: string) {
  const api = useApi();
  const [outgoing, setOutgoing] = useState<OutgoingMessage[]>(() => initialOutbox(conversationId));
  const [resumed] = useState(() => outgoing.filter((m) => m.state === "sending"));
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  // Send on an earlier-visit message is honoured once, however fast the clicks come.
  const claimed = useRef(new Set<string>());

  useEffect(() => {
    saveUnsent(conversationId, outgoing);
    holdOnly(conversationId, outgoing.filter((m) => m.state !== "earlier"));
  }, [conversationId, outgoing]);
  const startedClients = useLive((s) => s.view.turns.map((t) => t.clientId ?? "").join(","));

  const settle = useCallback((clientId: string) => {
    clearTimeout(timers.current.get(clientId));
    timers.current.delete(clientId);
    setOutgoing((o) => o.filter((x) => x.clientId !== clientId));
  }, []);

  useEffect(() => {
    const started = new Set(startedClients.split(","));
    setOutgoing((o) => (o.some((x) => started.has(x.clientId)) ? o.filter((x) => !started.has(x.clientId)) : o));
  }, [startedClients]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  const post = useCallback(
    (clientId: string, text: string, files: readonly AttachmentOut[] = [], resent = false, delivery: Delivery = "queue") => {
      const mark = (state: OutgoingMessage["state"]) =>
        setOutgoing((o) => o.map((x) => (x.clientId === clientId ? { ...x, state } : x)));
      timers.current.set(clientId, setTimeout(() => mark("slow"), 1000));
      api.send(conversationId, text, clientId, delivery, files.map((f) => f.id)).then(
        (ack) => {
          clearTimeout(timers.current.get(clientId));
          // Queued: the queue tray shows it now. Sent again with a key the daemon may already
          // know: the thread (or the live turn) already has it, whatever became of the first.
          // Steered: the live turn shows it in place (its `steered` event) — the echo goes too.
          if (ack.queued || ack.steered || resent) settle(clientId);
        },
        () => {
          clearTimeout(timers.current.get(clientId));
          mark("failed");
        },
      );
    },
    [api, conversationId, settle],
  );

  // What this page sent and the view's unmount interrupted goes again, once, with its own key.
  useEffect(() => {
    for (const m of resumed) post(m.clientId, m.text, m.attachments, true);
  }, [resumed, post]);

  const send = useCallback(
    (text: string, delivery: Delivery = "queue", files: readonly AttachmentOut[] = []) => {
      const clientId = crypto.randomUUID();
      setOutgoing((o) => [...o, { clientId, text, state: "sending", ...(files.length ? { attachments: files } : {}) }]);
      post(clientId, text, files, false, delivery);
    },
    [post],
  );

  const retry = useCallback(
    (clientId: string) => {
      const item = outgoing.find((x) => x.clientId === clientId);
      if (!item) return;
      setOutgoing((o) => o.map((x) => (x.clientId === clientId ? { ...x, state: "sending" } : x)));
      post(clientId, item.text, item.attachments); // same key: the daemon never makes two messages of one send
    },
    [outgoing, post],
  );

  /** The owner's click on an earlier visit's message: sent with its stored key, so at most one results. */
  const sendEarlier = useCallback(
    (clientId: string) => {
      const item = outgoing.find((x) => x.clientId === clientId && x.state === "earlier");
      if (!item || claimed.current.has(clientId)) return;
      claimed.current.add(clientId);
      setOutgoing((o) => o.map((x) => (x.clientId === clientId ? { ...x, state: "sending" } : x)));
      post(clientId, item.text, item.attachments, true);
    },
    [outgoing, post],
  );

  return { outgoing, send, retry, sendEarlier, discard: settle };
}
