import { ConversationListEvent, CHAT_AREA_ROUTES, type ConversationAlertEvent, type ConversationAlertWithdrawnEvent, type OwnerBriefEvent } from "@coffer/protocol";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useApi } from "../../api/api-context.js";
import { LiveLink } from "../../api/live-link.js";
import { keys, patchLists } from "../../api/queries.js";
import { forgetToolCallConversation, prependToolCall, TOOL_CALL_LOG_KEY } from "../../api/tool-call-log.js";
import { deleteDraft } from "../composer/draft-store.js";

/**
 * Keep every cached history list live from GET /chat/events; it has no replay, so refetch on
 * each attach. Alerts on the same stream go to `onAlert` (src/alerts); logged tool calls to the
 * Tool calls log's cache (api/tool-call-log.ts).
 */
export function useConversationListEvents(onAlert?: (alert: ConversationAlertEvent | ConversationAlertWithdrawnEvent | OwnerBriefEvent) => void): void {
  const api = useApi();
  const client = useQueryClient();
  const alertRef = useRef(onAlert);
  alertRef.current = onAlert;
  useEffect(() => {
    const link = new LiveLink({
      url: api.url(CHAT_AREA_ROUTES.conversationListEvents),
      headers: () => api.headers(),
      onOpen: () => {
        void client.invalidateQueries({ queryKey: keys.lists });
        void client.invalidateQueries({ queryKey: TOOL_CALL_LOG_KEY });
      },
      // Published on <html data-list-stream="…">: "open" means the daemon holds this page's
      // listener, so an alert raised from then on reaches it (the stream has no replay).
      onState: (state) => (document.documentElement.dataset.listStream = state.status),
      maxAttempts: Number.POSITIVE_INFINITY,
      onFrame: (frame) => {
        const parsed = ConversationListEvent.safeParse(JSON.parse(frame.data));
        if (!parsed.success) return;
        const event = parsed.data;
        if (event.type === "conversation_alert" || event.type === "conversation_alert_withdrawn" || event.type === "owner_brief") alertRef.current?.(event);
        else if (event.type === "tool_call_logged") prependToolCall(client, event.invocation);
        else if (event.type === "conversation_deleted") {
          patchLists(client, { removeId: event.id });
          forgetToolCallConversation(client, event.id);
          deleteDraft(event.id); // deleted elsewhere (another tab, the CLI): its draft goes too
        } else patchLists(client, { upsert: event.conversation });
      },
    });
    link.start();
    return () => {
      link.stop();
      delete document.documentElement.dataset.listStream;
    };
  }, [api, client]);
}
