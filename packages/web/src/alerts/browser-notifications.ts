import { alertHeadline, type ConversationAlertEvent } from "@coffer/protocol";
import { readStoredChoice, writeStored } from "../app/stored.js";

/** What this browser lets the page do: "unsupported" when it has no Notification API at all. */
export type NotificationState = NotificationPermission | "unsupported";

export function notificationState(): NotificationState {
  return typeof Notification === "undefined" ? "unsupported" : Notification.permission;
}

/** Asked only from the owner's click on the Alerts toggle, never on load (browsers refuse it anyway). */
export async function requestNotifications(): Promise<NotificationState> {
  if (typeof Notification === "undefined") return "unsupported";
  return Notification.requestPermission();
}

/**
 * The owner's own switch for this browser, besides the browser's permission: notifications
 * show only after the owner turned them on here (a permission granted for another reason, or
 * long ago, does not start them), and turning it off silences them without a trip to the
 * browser's settings. Per browser, like the permission itself.
 */
const SWITCH_KEY = "coffer.alerts.notifications";

export function notificationsSwitchedOn(): boolean {
  return readStoredChoice(SWITCH_KEY, ["on"]) === "on";
}

export function switchNotifications(on: boolean): void {
  writeStored(SWITCH_KEY, on ? "on" : null); // storage refused (private mode): it just does not stick
}

/**
 * One system notification for an alert, when the owner allowed them. One per conversation
 * at a time (its id is the tag: a newer alert replaces the older). Clicking it brings the
 * tab forward and opens the conversation.
 */
export function showNotification(alert: ConversationAlertEvent, open: (conversationId: string) => void): Notification | null {
  if (!notificationsSwitchedOn() || notificationState() !== "granted") return null;
  const n = new Notification(alertHeadline(alert.kind, alert.title), {
    body: alert.detail ?? undefined,
    tag: alert.conversation_id,
  });
  n.onclick = () => {
    window.focus();
    open(alert.conversation_id);
    n.close();
  };
  if (alert.question_id) shownQuestions.set(alert.question_id, n);
  return n;
}

/** The morning brief (issue 27): one notification, replaced by the next brief. */
export function showBrief(text: string, open: () => void): void {
  if (!notificationsSwitchedOn() || notificationState() !== "granted") return;
  const [title, ...body] = text.split("\n");
  const n = new Notification(title ?? "Coffer brief", { body: body.join("\n").trim(), tag: "coffer-brief" });
  n.onclick = () => {
    window.focus();
    open();
    n.close();
  };
}

/** The notifications shown for open questions, so an answer on any surface can take them down. */
const shownQuestions = new Map<string, Notification>();

/** The question was answered (or its turn ended): its notification, if still shown, closes. */
export function withdrawNotification(questionId: string): void {
  shownQuestions.get(questionId)?.close();
  shownQuestions.delete(questionId);
}
