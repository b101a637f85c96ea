import type { ToolCallResult } from "./gateway-ports.js";

/**
 * The most of an upstream tool's result handed to an agent, in characters of its JSON: 1 MiB.
 * Claude Code and Codex keep far less of one tool result in context, and every block the
 * agent receives is also written into the reply's stored content (docs/decisions.md,
 * "Hardening II: daemon resources").
 */
export const TOOL_RESULT_MAX_CHARS = 1024 * 1024;

const note = (dropped: number) => `[Coffer cut this tool result at ${TOOL_RESULT_MAX_CHARS.toLocaleString("en")} characters; ${dropped.toLocaleString("en")} more were left out]`;

/**
 * `result` within `max` characters: blocks are kept in order while they fit, a text block that
 * crosses the line is cut, and what is left out is named in one closing text block, so the
 * agent knows it did not see everything. Within the cap the result is returned as it is.
 */
export function capToolResult(result: ToolCallResult, max = TOOL_RESULT_MAX_CHARS): ToolCallResult {
  const sizes = result.content.map((block) => JSON.stringify(block).length);
  const structured = result.structuredContent === undefined ? 0 : JSON.stringify(result.structuredContent).length;
  const total = sizes.reduce((a, b) => a + b, 0) + structured;
  if (total <= max) return result;
  const content: Record<string, unknown>[] = [];
  let room = max;
  let dropped = 0;
  result.content.forEach((block, i) => {
    const size = sizes[i]!;
    if (size <= room) {
      content.push(block);
      room -= size;
    } else if (block.type === "text" && typeof block.text === "string" && room > 0) {
      content.push({ ...block, text: block.text.slice(0, room) });
      dropped += block.text.length - room;
      room = 0;
    } else {
      dropped += size;
    }
  });
  // Structured content repeats the text for clients that parse it; past the cap it goes whole.
  if (structured) dropped += structured;
  content.push({ type: "text", text: note(dropped) });
  return { content, ...(result.isError !== undefined ? { isError: result.isError } : {}) };
}
