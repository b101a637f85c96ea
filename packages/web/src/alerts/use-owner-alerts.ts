import type { ConversationAlertEvent, ConversationAlertWithdrawnEvent, OwnerBriefEvent } from "@coffer/protocol";
import { useCallback, useEffect, useRef } from "react";
import { useNavigate } from "react-router";
import { showBrief, showNotification, withdrawNotification } from "./browser-notifications.js";
import { TabMark } from "./tab-mark.js";

export type OwnerListAlert = ConversationAlertEvent | ConversationAlertWithdrawnEvent | OwnerBriefEvent;

/**
 * The page's side of alerts: while the owner is not looking (the page is hidden), an alert
 * from the conversation-list stream raises a notification (if allowed) and marks the tab;
 * looking again (the page visible, or the window focused) clears the mark. A visible page
 * raises nothing: the owner sees the conversation list change. The daemon already filtered
 * by the owner's alert settings.
 */
export function useOwnerAlerts(): (alert: OwnerListAlert) => void {
  const navigate = useNavigate();
  const mark = useRef<TabMark | null>(null);
  mark.current ??= new TabMark();
  useEffect(() => {
    const look = () => {
      if (document.visibilityState === "visible") mark.current?.clear();
    };
    document.addEventListener("visibilitychange", look);
    window.addEventListener("focus", look);
    return () => {
      document.removeEventListener("visibilitychange", look);
      window.removeEventListener("focus", look);
    };
  }, []);
  return useCallback(
    (alert: OwnerListAlert) => {
      // Answered somewhere (or its turn ended): the question's notification comes down, looking or not.
      if (alert.type === "conversation_alert_withdrawn") return withdrawNotification(alert.question_id);
      if (document.visibilityState === "visible") return;
      mark.current?.mark();
      // The morning brief: one notification, its body the brief, a click opening the first conversation it names.
      if (alert.type === "owner_brief") {
        const first = alert.conversations[0];
        return void showBrief(alert.text, () => navigate(first ? `/chat/${encodeURIComponent(first.conversation_id)}` : "/"));
      }
      showNotification(alert, (id) => navigate(`/chat/${encodeURIComponent(id)}`));
    },
    [navigate],
  );
}
