import { alertHeadline, holdLabel, surfaceName, type QueueHold } from "@coffer/protocol";
import type { AlertWithdrawal, OwnerAlert } from "../alerts/owner-alerts.js";

const DETAIL_CHARS = 200;
const ICONS = { turn_finished: "✔️", turn_failed: "⚠️", question_asked: "❓" } as const;

/** The page's address of a conversation, under the owner's base URL. */
export function conversationLink(base: string, conversationId: string): string {
  return `${base.replace(/\/+$/, "")}/chat/${encodeURIComponent(conversationId)}`;
}

/** A short alert for the owner's own chat: what happened, in which conversation, and the way back. */
export function alertText(alert: OwnerAlert, link: string): string {
  const lines = [`${ICONS[alert.kind]} ${alertHeadline(alert.kind, alert.conversation.title)}`];
  const detail = alert.detail?.replace(/\s+/g, " ").trim();
  if (detail) lines.push(detail.length > DETAIL_CHARS ? `${detail.slice(0, DETAIL_CHARS - 1)}…` : detail);
  lines.push(link);
  return lines.join("\n");
}

/** What a bound chat hears when its conversation's queue parks on a plan limit, or runs again. */
export function holdText(hold: QueueHold | null, by: "reset" | "owner" | null, now: Date): string {
  if (hold) return `⏸ ${holdLabel(hold, now)}. The queue resumes by itself then; resume it earlier from Coffer.`;
  return by === "owner" ? "▶️ The queue was resumed." : "▶️ The plan limit has reset: the queue runs again.";
}

/**
 * The reminder of a question still open, with how to answer it: a chat bound to the
 * conversation answers with its next reply (or a button above); otherwise the page does.
 */
export function reminderText(alert: OwnerAlert, link: string, answersHere: boolean): string {
  const name = alert.conversation.title?.trim() || "Untitled conversation";
  const detail = alert.detail?.replace(/\s+/g, " ").trim() ?? "";
  const cut = detail.length > DETAIL_CHARS ? `${detail.slice(0, DETAIL_CHARS - 1)}…` : detail;
  return [
    `⏰ Still waiting for your answer: ${name}`,
    ...(cut ? [cut] : []),
    answersHere ? "Reply here to answer (or tap an option on the question above)." : `Answer it on the page: ${link}`,
  ].join("\n");
}

/** The phone had been told of a question that is now closed: who answered, so it does not answer into the void. */
export function withdrawnText(w: AlertWithdrawal): string {
  const name = w.conversation.title?.trim() || "Untitled conversation";
  if (w.by === null) return `☑️ No longer waiting: ${name} (its turn ended before an answer).`;
  return `☑️ Answered from ${surfaceName(w.by)}: ${name}. Nothing more to do.`;
}
