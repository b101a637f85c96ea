import { z } from "zod";

// What an alert is: the Chat's conversation-list stream carries it and the page's first load shows
// it, so it lives in the chat room; Settings → Alerts only chooses which kinds alert
// (settings/alerts.ts).

/**
 * What can alert the owner when they are not looking (issue 14, part 5): a turn that
 * finished, one that failed, and an agent question waiting for an answer.
 */
export const ALERT_KINDS = ["turn_finished", "turn_failed", "question_asked"] as const;
export const AlertKind = z.enum(ALERT_KINDS);
export type AlertKind = z.infer<typeof AlertKind>;

/**
 * On the conversation-list stream (GET /chat/events): something happened the owner may want
 * to hear about. Sent only for kinds the browser surface alerts on; the page decides whether
 * the owner is looking (a visible page raises nothing).
 */
export const ConversationAlertEvent = z.object({
  type: z.literal("conversation_alert"),
  conversation_id: z.string(),
  title: z.string().nullable(),
  kind: AlertKind,
  detail: z.string().nullable().describe("The failure's message, or the question's first line; null for a finished turn."),
  question_id: z.string().optional().describe("The question this alert is about (question_asked only): a later withdrawal names it."),
  reminder: z.boolean().optional().describe("True when this is the reminder of a question still open (issue 27)."),
});
export type ConversationAlertEvent = z.infer<typeof ConversationAlertEvent>;

/** The notification's headline, the same on the page and the phone. */
export function alertHeadline(kind: AlertKind, title: string | null): string {
  const name = title?.trim() || "Untitled conversation";
  switch (kind) {
    case "turn_finished":
      return `Finished: ${name}`;
    case "turn_failed":
      return `Failed: ${name}`;
    case "question_asked":
      return `Needs you: ${name}`;
  }
}

/**
 * On the conversation-list stream: the question an alert was raised for has been answered (or
 * its turn ended), so every surface takes its alert down. `by` is the surface that answered.
 */
export const ConversationAlertWithdrawnEvent = z.object({
  type: z.literal("conversation_alert_withdrawn"),
  conversation_id: z.string(),
  question_id: z.string(),
  by: z.string().nullable(),
});
export type ConversationAlertWithdrawnEvent = z.infer<typeof ConversationAlertWithdrawnEvent>;

/**
 * On the conversation-list stream: the morning brief (issue 27) for the page's alert area. Kept
 * small (it rides the page's first load): the text and, per conversation it names, a link target.
 */
export const OwnerBriefEvent = z.object({
  type: z.literal("owner_brief"),
  text: z.string(),
  conversations: z.array(z.object({ conversation_id: z.string(), title: z.string().nullable() })),
});
export type OwnerBriefEvent = z.infer<typeof OwnerBriefEvent>;
