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
/** Content is stored and served in the order the agent produced it: text, tools and the agent's questions interleave. */
export const ContentBlock = z.discriminatedUnion("type", [TextBlock, ToolUseBlock, ToolResultBlock, QuestionBlock]);

export type TextBlock = z.infer<typeof TextBlock>;
export type ToolUseBlock = z.infer<typeof ToolUseBlock>;
export type ToolResultBlock = z.infer<typeof ToolResultBlock>;
export type ContentBlock = z.infer<typeof ContentBlock>;
