import { useCallback, useEffect, useRef, useState } from "react";
import { useApi } from "../../api/api-context.js";
import type { OutgoingMessage } from "../thread/thread-view.js";
import { useLive } from "../live/use-live.js";

/**
 * Sends with an idempotency key and an optimistic echo: "Sending…" after 1 s without an
 * answer, "Not sent · Retry" on failure. The echo goes once the message is a turn or queued.
 */
export function useOutgoing(conversationId: string) {
  const api = useApi();
  const [outgoing, setOutgoing] = useState<OutgoingMessage[]>([]);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
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
    (clientId: string, text: string) => {
      const mark = (state: OutgoingMessage["state"]) =>
        setOutgoing((o) => o.map((x) => (x.clientId === clientId ? { ...x, state } : x)));
      timers.current.set(clientId, setTimeout(() => mark("slow"), 1000));
      api.send(conversationId, text, clientId).then(
        (ack) => {
          clearTimeout(timers.current.get(clientId));
          if (ack.queued) settle(clientId); // the queue tray shows it now
        },
        () => {
          clearTimeout(timers.current.get(clientId));
          mark("failed");
        },
      );
    },
    [api, conversationId, settle],
  );

  const send = useCallback(
    (text: string) => {
      const clientId = crypto.randomUUID();
      setOutgoing((o) => [...o, { clientId, text, state: "sending" }]);
      post(clientId, text);
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
