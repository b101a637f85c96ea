import { useCallback, useEffect, useRef, useState } from "react";
import type { Delivery } from "@coffer/protocol";
import { useApi } from "../../api/api-context.js";
import type { OutgoingMessage } from "../thread/thread-view.js";
import { useLive } from "../live/use-live.js";
import { loadUnsent, saveUnsent } from "./draft-store.js";

/**
 * Sends with an idempotency key and an optimistic echo: "Sending…" after 1 s without an
 * answer, "Not sent · Retry" on failure. The echo goes once the message is a turn or queued.
 * Until the daemon acknowledges it, the message is also kept in localStorage: after a reload
 * it is sent again with the same key (at most one message results) and settles on the answer.
 */
export function useOutgoing(conversationId: string) {
  const api = useApi();
  const [restored] = useState(() => loadUnsent(conversationId));
  const [outgoing, setOutgoing] = useState<OutgoingMessage[]>(() => restored.map((m) => ({ ...m, state: "sending" as const })));
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  useEffect(() => saveUnsent(conversationId, outgoing), [conversationId, outgoing]);
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
    (clientId: string, text: string, resent = false, delivery: Delivery = "queue") => {
      const mark = (state: OutgoingMessage["state"]) =>
        setOutgoing((o) => o.map((x) => (x.clientId === clientId ? { ...x, state } : x)));
      timers.current.set(clientId, setTimeout(() => mark("slow"), 1000));
      api.send(conversationId, text, clientId, delivery).then(
        (ack) => {
          clearTimeout(timers.current.get(clientId));
          // Queued: the queue tray shows it now. Resent after a reload: the thread (or the
          // live turn) already has it, whatever became of the first attempt.
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

  // What a reload interrupted is sent again, once, with its own key.
  useEffect(() => {
    for (const m of restored) post(m.clientId, m.text, true);
  }, [restored, post]);

  const send = useCallback(
    (text: string, delivery: Delivery = "queue") => {
      const clientId = crypto.randomUUID();
      setOutgoing((o) => [...o, { clientId, text, state: "sending" }]);
      post(clientId, text, false, delivery);
    },
    [post],
  );

  const retry = useCallback(
    (clientId: string) => {
      const item = outgoing.find((x) => x.clientId === clientId);
      if (!item) return;
      setOutgoing((o) => o.map((x) => (x.clientId === clientId ? { ...x, state: "sending" } : x)));
      post(clientId, item.text); // same key: the daemon never makes two messages of one send
    },
    [outgoing, post],
  );

  return { outgoing, send, retry };
}
