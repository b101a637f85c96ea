import type { ContentBlock, NoticeBlock, ToolResultBlock, ToolUseBlock } from "../chat/content.js";
import type { QuestionBlock } from "../chat/questions.js";

export type Segment =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "tool"; readonly use: ToolUseBlock; readonly result: ToolResultBlock | null }
  | { readonly kind: "question"; readonly block: QuestionBlock }
  | { readonly kind: "notice"; readonly block: NoticeBlock };

/**
 * A reply's content as it is shown, in production order: runs of text joined, each tool call
 * paired with its result (if it has one yet) — one card (the page) or one line (`coffer chat
 * show`) per call, whatever surface shows it. A tool call that asked one of the reply's questions
 * (Claude's AskUserQuestion) is shown as that question, not also as a tool card.
 */
export function toSegments(blocks: readonly ContentBlock[]): Segment[] {
  const segments: Segment[] = [];
  const toolAt = new Map<string, number>();
  const asking = new Set(blocks.flatMap((b) => (b.type === "question" && b.tool_use_id ? [b.tool_use_id] : [])));
  for (const block of blocks) {
    if (block.type === "question") {
      segments.push({ kind: "question", block });
    } else if (block.type === "notice") {
      segments.push({ kind: "notice", block });
    } else if (block.type !== "text" && asking.has(block.tool_use_id)) {
      continue;
    } else if (block.type === "text") {
      const last = segments[segments.length - 1];
      if (last?.kind === "text") segments[segments.length - 1] = { kind: "text", text: last.text + block.text };
      else segments.push({ kind: "text", text: block.text });
    } else if (block.type === "tool_use") {
      toolAt.set(block.tool_use_id, segments.length);
      segments.push({ kind: "tool", use: block, result: null });
    } else {
      const at = toolAt.get(block.tool_use_id);
      const seg = at === undefined ? undefined : segments[at];
      if (seg?.kind === "tool") segments[at!] = { ...seg, result: block };
      else {
        // A result without its call (rows stored before the steer fix could hold one): its own card.
        const use: ToolUseBlock = { type: "tool_use", tool_use_id: block.tool_use_id, tool_name: block.tool_name, tool_input: null };
        segments.push({ kind: "tool", use, result: block });
      }
    }
  }
  return segments;
}
