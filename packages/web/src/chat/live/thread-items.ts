import type { ContentBlock, MessageOut, QuestionBlock, ToolResultBlock, ToolUseBlock } from "@coffer/protocol";
import type { LiveTurn } from "./apply-event.js";

export type ThreadItem =
  | { readonly kind: "message"; readonly key: string; readonly message: MessageOut }
  | { readonly kind: "live"; readonly key: string; readonly turn: LiveTurn };

/**
 * The thread as shown: persisted messages in seq order, with any turn seen live standing
 * in for its assistant row until that row is settled, and live turns the persisted page
 * does not hold yet appended at the end.
 */
export function mergeThread(persisted: readonly MessageOut[], turns: readonly LiveTurn[]): ThreadItem[] {
  const byAssistant = new Map(turns.map((t) => [t.assistantMessageId, t]));
  const ids = new Set<string>();
  const items: ThreadItem[] = [];
  for (const message of persisted) {
    ids.add(message.id);
    const turn = byAssistant.get(message.id);
    if (turn && (turn.phase === "streaming" || message.status === "streaming")) items.push({ kind: "live", key: message.id, turn });
    else items.push({ kind: "message", key: message.id, message });
  }
  for (const turn of turns) {
    if (!ids.has(turn.userMessage.id)) items.push({ kind: "message", key: turn.userMessage.id, message: turn.userMessage });
    if (!ids.has(turn.assistantMessageId)) items.push({ kind: "live", key: turn.assistantMessageId, turn });
  }
  return items;
}

export type Segment =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "tool"; readonly use: ToolUseBlock; readonly result: ToolResultBlock | null }
  | { readonly kind: "question"; readonly block: QuestionBlock };

/**
 * Content in production order, each tool call paired with its result (if it has one yet). A
 * tool call that asked one of the thread's questions (Claude's AskUserQuestion) is shown as
 * that question, not also as a tool card.
 */
export function toSegments(blocks: readonly ContentBlock[]): Segment[] {
  const segments: Segment[] = [];
  const toolAt = new Map<string, number>();
  const asking = new Set(blocks.flatMap((b) => (b.type === "question" && b.tool_use_id ? [b.tool_use_id] : [])));
  for (const block of blocks) {
    if (block.type === "question") {
      segments.push({ kind: "question", block });
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
        // A result without its call (should not happen): show it as its own card.
        const use: ToolUseBlock = { type: "tool_use", tool_use_id: block.tool_use_id, tool_name: block.tool_name, tool_input: null };
        segments.push({ kind: "tool", use, result: block });
      }
    }
  }
  return segments;
}
