import { z } from "zod";

/**
 * How full the conversation's context is after a turn (an AgentEvent the engine stores, not
 * content): the last model call's prompt plus its output, as the agent reports it (Claude
 * Code's per-call usage, Codex's `thread/tokenUsage/updated` `last`), against the model's
 * context window when the agent says (Claude `modelUsage.contextWindow`, Codex `modelContextWindow`).
 */
export const ContextUsageEvent = z.object({
  type: z.literal("context_usage"),
  used_tokens: z.number().int().min(0),
  window_tokens: z.number().int().positive().nullable(),
});
export type ContextUsageEvent = z.infer<typeof ContextUsageEvent>;

export const ContextUsageOut = z.object({
  used_tokens: z.number().int(),
  window_tokens: z.number().int().nullable().describe("Null when the agent did not say: the page shows no gauge."),
  updated_at: z.string(),
});
export type ContextUsageOut = z.infer<typeof ContextUsageOut>;

export const ConversationContextOut = z.object({
  context: ContextUsageOut.nullable().describe("Null until a turn has reported its usage."),
});
export type ConversationContextOut = z.infer<typeof ConversationContextOut>;
