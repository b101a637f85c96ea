import { z } from "zod";
import { NoticeBlock, ToolResultBlock } from "./content.js";
import { ConversationOut } from "./conversations.js";
import { MessageOut, PendingPreview } from "./messages.js";
import { QuestionAnsweredEvent, QuestionEvent } from "./questions.js";
import { PlanLimitsEvent, QueueHold } from "./plan-limits.js";
import { RetryingEvent } from "./retrying.js";
import { ConversationAlertEvent, ConversationAlertWithdrawnEvent, OwnerBriefEvent } from "./alert-events.js";
import { ContextUsageEvent } from "./context-usage.js";
import { McpInvocationOut } from "./mcp.js";
import { FileSharedEvent } from "./share-file.js";
import { TurnFailureCode } from "./turn-errors.js";

// Events the agent adapters yield (and the bus republishes unchanged).
export const TextDeltaEvent = z.object({ type: z.literal("text_delta"), text: z.string() });
export const ToolCallEvent = z.object({
  type: z.literal("tool_call"),
  tool_use_id: z.string(),
  tool_name: z.string(),
  tool_input: z.unknown(),
});
/** A tool result is stored exactly as the agent reported it, so the event is the block. */
export const ToolResultEvent = ToolResultBlock;
/** Coffer's own one-line notice in the reply (a lost agent session restarted with the conversation so far): the event is the block. */
export const NoticeEvent = NoticeBlock;
export const TurnDoneEvent = z.object({
  type: z.literal("turn_done"),
  prompt_tokens: z.number().int().nullable(),
  completion_tokens: z.number().int().nullable(),
  stop_reason: z.string().describe("end_turn | interrupted | max_iterations | an agent's own reason"),
  model: z.string().nullable(),
});
export const TurnErrorEvent = z.object({
  type: z.literal("turn_error"),
  code: TurnFailureCode,
  message: z.string(),
});

export const AgentEvent = z.discriminatedUnion("type", [
  TextDeltaEvent,
  ToolCallEvent,
  ToolResultEvent,
  TurnDoneEvent,
  TurnErrorEvent,
  RetryingEvent,
  PlanLimitsEvent,
  ContextUsageEvent,
  NoticeEvent,
]);
export type AgentEvent = z.infer<typeof AgentEvent>;
export type TextDeltaEvent = z.infer<typeof TextDeltaEvent>;
export type ToolCallEvent = z.infer<typeof ToolCallEvent>;
export type ToolResultEvent = z.infer<typeof ToolResultEvent>;
export type TurnDoneEvent = z.infer<typeof TurnDoneEvent>;
export type TurnErrorEvent = z.infer<typeof TurnErrorEvent>;
export type NoticeEvent = z.infer<typeof NoticeEvent>;

// Events only the engine publishes.
export const TurnStartEvent = z.object({
  type: z.literal("turn_start"),
  turn_id: z.string(),
  user_message: MessageOut.describe("The user message this turn answers, as committed."),
  assistant_message_id: z.string(),
  client_id: z.string().nullable().describe("The sender's idempotency key, so a surface can spot its own turn."),
});
export const QueueChangedEvent = z.object({
  type: z.literal("queue_changed"),
  pending: z.array(PendingPreview).describe("Each text cut to its first PENDING_PREVIEW_CHARS characters; GET …/pending has them whole."),
  paused: z.boolean(),
  hold: QueueHold.nullable().optional().describe("Set while the queue is parked on a plan limit until its reset."),
});
export const ResyncEvent = z.object({
  type: z.literal("resync"),
  reason: z.string().describe("Why the cursor could not be honoured; refetch messages, then continue live."),
});
export const SteeredEvent = z.object({
  type: z.literal("steered"),
  turn_id: z.string(),
  user_message: MessageOut.describe("The steered message, as committed (steered: true): it sits after the reply so far."),
  previous_assistant_message_id: z.string().describe("The reply so far: see previous_state for what became of it."),
  previous_state: z
    .enum(["closed", "running_tool", "removed"])
    .describe(
      "closed: the reply so far is complete (stop_reason steered). running_tool: a tool call in it is still running — it takes the turn's events until every call in it has its result (protocol's hasOpenTool), then it is closed. removed: nothing had been said yet, so the empty reply row is gone.",
    ),
  assistant_message_id: z.string().describe("Where the same turn continues: later events belong to this reply."),
});
export const SteerFallbackEvent = z.object({
  type: z.literal("steer_fallback"),
  text: z.string(),
  reason: z.string().describe("Why the running turn could not take it: no_turn | turn_ended | not_steerable | steer_failed"),
  pending_id: z.string().describe("Where the message went instead: the head of the queue."),
});
export const ConversationDeletedEvent = z.object({ type: z.literal("conversation_deleted") });

/** Everything `GET /chat/conversations/{id}/events` can send. `event:` = type, `id:` = cursor. */
export const ChatEvent = z.discriminatedUnion("type", [
  TurnStartEvent,
  ...AgentEvent.options,
  QueueChangedEvent,
  ResyncEvent,
  ConversationDeletedEvent,
  QuestionEvent,
  QuestionAnsweredEvent,
  SteeredEvent,
  SteerFallbackEvent,
  FileSharedEvent,
]);
export type ChatEvent = z.infer<typeof ChatEvent>;
export type TurnStartEvent = z.infer<typeof TurnStartEvent>;
export type QueueChangedEvent = z.infer<typeof QueueChangedEvent>;
export type ResyncEvent = z.infer<typeof ResyncEvent>;
export type SteeredEvent = z.infer<typeof SteeredEvent>;
export type SteerFallbackEvent = z.infer<typeof SteerFallbackEvent>;

/** The one check for "this turn has ended" (turn_done or turn_error), everywhere. */
export function isTerminalEvent(e: { type: string }): e is TurnDoneEvent | TurnErrorEvent {
  return e.type === "turn_done" || e.type === "turn_error";
}

/**
 * A tool call the gateway has just logged (the Tool calls log's live rows): the page's one
 * always-open stream carries it, so the log needs no stream of its own.
 */
export const ToolCallLoggedEvent = z.object({ type: z.literal("tool_call_logged"), invocation: McpInvocationOut });
export type ToolCallLoggedEvent = z.infer<typeof ToolCallLoggedEvent>;

/** Everything `GET /chat/events` (the conversation list stream) can send. */
export const ConversationListEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("conversation_created"), conversation: ConversationOut }),
  z.object({ type: z.literal("conversation_updated"), conversation: ConversationOut }),
  z.object({ type: z.literal("conversation_deleted"), id: z.string() }),
  ConversationAlertEvent,
  ConversationAlertWithdrawnEvent,
  OwnerBriefEvent,
  ToolCallLoggedEvent,
]);
export type ConversationListEvent = z.infer<typeof ConversationListEvent>;
