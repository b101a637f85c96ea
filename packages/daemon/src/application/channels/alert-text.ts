import { alertHeadline, holdLabel, type QueueHold } from "@coffer/protocol";
import type { OwnerAlert } from "../alerts/owner-alerts.js";

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
