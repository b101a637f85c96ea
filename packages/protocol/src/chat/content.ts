import { z } from "zod";
import { QuestionBlock } from "./questions.js";

export const TextBlock = z.object({ type: z.literal("text"), text: z.string() });
export const ToolUseBlock = z.object({
  type: z.literal("tool_use"),
  tool_use_id: z.string(),
  tool_name: z.string(),
  tool_input: z.unknown(),
});
export const ToolResultBlock = z.object({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  tool_name: z.string(),
  output: z.unknown(),
  error: z.string().nullable(),
});
/**
 * Something Coffer itself says in the thread, in one line: not the agent's words (never sent to
 * the agent as its own reply). `agent_session_reseeded`: the agent had lost this conversation's
 * session and Coffer could not put it back, so it was restarted with the conversation so far
 * (docs/decisions.md, "Coffer keeps the agent's side of a conversation").
 */
export const NoticeCode = z.enum(["agent_session_reseeded"]);
export const NoticeBlock = z.object({ type: z.literal("notice"), code: NoticeCode, text: z.string() });
/** Content is stored and served in the order the agent produced it: text, tools and the agent's questions interleave. */
export const ContentBlock = z.discriminatedUnion("type", [TextBlock, ToolUseBlock, ToolResultBlock, QuestionBlock, NoticeBlock]);

export type TextBlock = z.infer<typeof TextBlock>;
export type ToolUseBlock = z.infer<typeof ToolUseBlock>;
export type ToolResultBlock = z.infer<typeof ToolResultBlock>;
export type NoticeCode = z.infer<typeof NoticeCode>;
export type NoticeBlock = z.infer<typeof NoticeBlock>;
export type ContentBlock = z.infer<typeof ContentBlock>;
