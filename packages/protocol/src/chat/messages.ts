import { z } from "zod";
import { ContentBlock } from "./content.js";
import { ConversationId, Timestamp } from "../wire/common.js";
import { QueueHold } from "./plan-limits.js";
import { TurnFailureCode } from "./turn-errors.js";
import { AttachmentIds, AttachmentOut } from "./attachments.js";
import { LaterAt, LaterMark, SendWhen } from "./later.js";

export const MessageRole = z.enum(["user", "assistant"]);
export const MessageStatus = z.enum(["complete", "streaming", "failed"]);

/**
 * Set on a message whose text is the transcript of a recording (a Telegram voice note): the
 * page and the CLI show a 🎤 mark before it. Absent means typed.
 */
export const VoiceMark = z
  .literal(true)
  .optional()
  .describe("Set when the text is the transcript of a voice note (shown with a 🎤 mark); absent when typed.");

/** Set on a message a schedule sent (the page shows a clock mark, the CLI ⏰). Absent when typed. */
export const ScheduleMark = z
  .object({ id: z.string(), name: z.string() })
  .optional()
  .describe("Set on a message a schedule sent: which schedule (shown with a clock mark); absent when typed.");
export type ScheduleMark = z.infer<typeof ScheduleMark>;

export const MessageOut = z.object({
  id: z.string(),
  conversation_id: ConversationId,
  seq: z.number().int().nonnegative(),
  role: MessageRole,
  content: z.array(ContentBlock),
  status: MessageStatus,
  model_id: z.string().nullable(),
  prompt_tokens: z.number().int().nullable(),
  completion_tokens: z.number().int().nullable(),
  stop_reason: z.string().nullable().describe("How a finished reply ended: end_turn, interrupted, max_iterations…"),
  error: z.object({ code: TurnFailureCode, message: z.string() }).nullable().describe("Why a failed reply failed."),
  steered: z
    .literal(true)
    .optional()
    .describe("Set on a user message steered into a running turn: it sits where the turn took it (after any tool call that was running then)."),
  attachments: z.array(AttachmentOut).optional().describe("Files sent with the message, in order (absent when none)."),
  voice: VoiceMark,
  schedule: ScheduleMark,
  created_at: Timestamp,
});
export type MessageOut = z.infer<typeof MessageOut>;
export type MessageRole = z.infer<typeof MessageRole>;
export type MessageStatus = z.infer<typeof MessageStatus>;

export const MessageListQuery = z.object({
  before: z.coerce.number().int().nonnegative().optional().describe("Return messages with seq below this (paging back)."),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
export type MessageListQuery = z.infer<typeof MessageListQuery>;

export const MessageListOut = z.object({
  messages: z.array(MessageOut).describe("Ascending by seq: the newest `limit` messages before `before`."),
  has_more: z.boolean().describe("Older messages exist; page with before = messages[0].seq."),
});
export type MessageListOut = z.infer<typeof MessageListOut>;

export const MAX_MESSAGE_CHARS = 32768;

/** How a message sent while a turn runs reaches the agent. */
export const Delivery = z.enum(["queue", "steer"]);
export type Delivery = z.infer<typeof Delivery>;

export const SendMessageRequest = z
  .object({
    text: z.string().max(MAX_MESSAGE_CHARS).describe("May be empty when the message carries attachments (files only)."),
    client_id: z.string().min(1).max(100).optional().describe("Idempotency key: the same client_id twice yields one message."),
    delivery: Delivery.optional().describe(
      "queue (the default): runs as its own turn after the running one. steer: injected into the running turn; when the agent cannot take it, it goes to the head of the queue and a steer_fallback event says so. Idle: either starts a turn.",
    ),
    attachment_ids: AttachmentIds.optional().describe("Files uploaded with POST /attachments, in the order they belong to the message."),
    send_at: LaterAt.optional(),
    send_when: SendWhen.optional(),
  })
  // A screenshot alone is a whole message; an empty message with nothing attached is a mistake.
  .refine((m) => m.text.length > 0 || (m.attachment_ids?.length ?? 0) > 0, { message: "a message needs text or at least one attachment", path: ["text"] })
  .refine((m) => !(m.send_at && m.send_when) && !((m.send_at || m.send_when) && m.delivery === "steer"), { message: "send_at or send_when, not both, and never with steer", path: ["send_at"] });
export type SendMessageRequest = z.infer<typeof SendMessageRequest>;

export const SendMessageAck = z.object({
  queued: z.boolean().describe("false = the turn started now; true = appended to the pending queue."),
  pending_id: z.string().optional(),
  steered: z.boolean().optional().describe("true = injected into the running turn (delivery steer); it is in the timeline, not the queue."),
  later: LaterMark.optional(),
});
export type SendMessageAck = z.infer<typeof SendMessageAck>;

/**
 * A queued message someone is editing: the queue stops in front of it until the edit is saved,
 * released, or its lease lapses (issue 22 B; POST …/pending/{pid}/hold).
 */
export const PendingEditing = z.object({
  by: z.string().describe("The surface editing it, as the daemon verified it: web, cli, telegram."),
  since: z.string().describe("ISO time the edit began (the hold itself lapses unless the editor keeps renewing it)."),
});
export type PendingEditing = z.infer<typeof PendingEditing>;

export const PendingItem = z.object({
  id: z.string(),
  text: z.string(),
  editing: PendingEditing.optional().describe("Set while a surface edits it: the queue does not start it, nor anything behind it."),
  attachments: z.array(AttachmentOut).optional().describe("Files queued with the message (kept through edits, reorders and send-now; absent when none)."),
  voice: VoiceMark,
  schedule: ScheduleMark,
  later: LaterMark.optional(),
});
export type PendingItem = z.infer<typeof PendingItem>;

/**
 * A queued item as `queue_changed` carries it: at most PENDING_PREVIEW_CHARS characters (code
 * points) of its text, so a frame stays small however long the queued messages are. The full
 * text is `GET …/pending`.
 */
export const PENDING_PREVIEW_CHARS = 200;
export const PendingPreview = PendingItem.extend({
  truncated: z.boolean().describe("The text is only the start of the message; GET …/pending has it whole."),
  length: z.number().int().describe("The full text's length in characters (Unicode code points)."),
});
export type PendingPreview = z.infer<typeof PendingPreview>;

export const PendingItemIn = z
  .object({
    id: z.string().max(100).optional().describe("Keep an existing item's id to keep its identity; omit for a new item. An id no longer queued (it ran or was removed) is dropped, never queued again."),
    text: z
      .string()
      .min(1)
      .max(MAX_MESSAGE_CHARS)
      .optional()
      .describe("Omit (with an id) to keep an existing item's text as it is; an id no longer queued is then dropped."),
    send_at: LaterAt.nullable().optional(),
    send_when: SendWhen.optional(),
  })
  .refine((item) => item.text !== undefined || item.id !== undefined, { message: "an item needs its text, or the id of a queued item to keep" });
export type PendingItemIn = z.infer<typeof PendingItemIn>;

export const PendingQueueIn = z.object({
  pending: z.array(PendingItemIn).max(500),
  resume: z
    .boolean()
    .optional()
    .describe("Unpause the queue (the default). false edits a paused queue without running it; an emptied queue is never left paused."),
  seen: z
    .array(z.string().max(100))
    .max(500)
    .optional()
    .describe(
      "The ids of the queue as the client last saw it. Only those may be removed by leaving them out; a message queued meanwhile (from another surface) stays, at the tail. Omitted: the list replaces the queue.",
    ),
  hold_id: z
    .string()
    .max(100)
    .optional()
    .describe("The edit hold this save ends (what POST …/pending/{pid}/hold returned): saving an edit releases the queue in the same step."),
});
export type PendingQueueIn = z.infer<typeof PendingQueueIn>;

export const PendingQueueOut = z.object({
  pending: z.array(PendingItem),
  paused: z.boolean(),
  hold: QueueHold.nullable().optional().describe("Set while the queue is parked on a plan limit until its reset."),
});
export type PendingQueueOut = z.infer<typeof PendingQueueOut>;
