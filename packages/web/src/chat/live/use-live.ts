import { useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import { useNavigate } from "react-router";
import { useApi } from "../../api/api-context.js";
import { keys, refreshLatest } from "../../api/queries.js";
import { LiveConversationStore, type LiveSnapshot } from "./live-store.js";

/** Open the one live subscription for a conversation for as long as its page is mounted. */
export function useLiveConversation(id: string): LiveConversationStore {
  const api = useApi();
  const client = useQueryClient();
  const navigate = useNavigate();
  // navigate's identity follows the location; the subscription must not.
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  const store = useMemo(() => {
    const reload = () => {
      void refreshLatest(client, api, id).catch(() => undefined); // the thread's own query shows load errors
      void client.invalidateQueries({ queryKey: keys.conversation(id) });
    };
    return new LiveConversationStore(id, api, {
      onAttach: reload,
      onThreadChanged: reload,
      onDeleted: () => {
        client.removeQueries({ queryKey: keys.messages(id) });
        void navigateRef.current("/chat", { replace: true });
      },
    });
  }, [id, api, client]);
  useEffect(() => {
    store.start();
    return () => store.stop();
  }, [store]);
  return store;
}

export const LiveContext = createContext<LiveConversationStore | null>(null);

export function useLiveStore(): LiveConversationStore {
  const store = useContext(LiveContext);
  if (!store) throw new Error("useLiveStore outside LiveContext");
  return store;
}

/** Read a slice of the live snapshot; the selector must return a stable value (a primitive or a kept reference). */
export function useLive<T>(select: (s: LiveSnapshot) => T): T {
  const store = useLiveStore();
  return useSyncExternalStore(store.subscribe, () => select(store.getSnapshot()));
}
