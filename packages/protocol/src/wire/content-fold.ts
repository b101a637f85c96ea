import type { ContentBlock } from "../chat/content.js";
import type { AgentEvent } from "../chat/events.js";
import type { QuestionAnsweredEvent, QuestionEvent } from "../chat/questions.js";

/** What a reply's content is folded from: the agent's events and the owner's questions and answers. */
export type ContentEvent = AgentEvent | QuestionEvent | QuestionAnsweredEvent;

/**
 * The one fold of a turn's events into content blocks, in emission order: consecutive text
 * deltas grow one text block; each tool call and result becomes its own block; an empty
 * delta and the terminal events change nothing. The daemon persists what it folds and the
 * page shows what it folds, so a live reply and the same reply reloaded are the same blocks.
 * A tool call without input gets `{}` and a result without output `null`: what the stored
 * row would have after a JSON round trip (docs/decisions.md, "One content fold"). A question
 * is a block where it was asked, open until its `question_answered` closes it in place with the
 * answers and the surface they came from (docs/decisions.md, "Questions leave a trace").
 *
 * Pure: returns `blocks` itself when nothing changes, else a new array sharing every block
 * but the one it changed. The daemon calls it per delta, so a delta costs one array copy and one
 * string concatenation (V8 builds a rope; it is flattened once, when the blocks are stored).
 */
export function foldContent(blocks: readonly ContentBlock[], event: ContentEvent): readonly ContentBlock[] {
  switch (event.type) {
    case "text_delta": {
      if (!event.text) return blocks;
      const last = blocks[blocks.length - 1];
      if (last?.type !== "text") return [...blocks, { type: "text", text: event.text }];
      const next = blocks.slice();
      next[next.length - 1] = { type: "text", text: last.text + event.text };
      return next;
    }
    case "tool_call":
      return [
        ...blocks,
        { type: "tool_use", tool_use_id: event.tool_use_id, tool_name: event.tool_name, tool_input: event.tool_input ?? {} },
      ];
    case "tool_result":
      return [
        ...blocks,
        {
          type: "tool_result",
          tool_use_id: event.tool_use_id,
          tool_name: event.tool_name,
          output: event.output ?? null,
          error: event.error,
        },
      ];
    case "notice":
      return [...blocks, { type: "notice", code: event.code, text: event.text }];
    case "question":
      return [
        ...blocks,
        {
          type: "question",
          question_id: event.question_id,
          questions: event.questions,
          state: "open",
          answers: null,
          by: null,
          tool_use_id: event.tool_use_id ?? null,
        },
      ];
    case "question_answered": {
      const at = blocks.findIndex((b) => b.type === "question" && b.question_id === event.question_id);
      const asked = blocks[at];
      if (asked?.type !== "question" || asked.state !== "open") return blocks;
      const next = blocks.slice();
      next[at] = { ...asked, state: event.answers ? "answered" : "cancelled", answers: event.answers, by: event.answers ? (event.by ?? null) : null };
      return next;
    }
    case "turn_done":
    case "turn_error":
    case "retrying":
    case "plan_limits":
    case "context_usage":
      return blocks;
  }
}

/**
 * Whether a reply still has a tool call without its result. A reply closed by a steer while a
 * tool runs keeps taking the turn's events until this is false, so the tool's result lands in
 * the card its call opened and the steered message follows it (docs/decisions.md, "Steering
 * keeps one tool card"). The daemon's runner and the page's live view both ask this.
 */
export function hasOpenTool(blocks: readonly ContentBlock[]): boolean {
  const open = new Set<string>();
  for (const b of blocks) {
    if (b.type === "tool_use") open.add(b.tool_use_id);
    else if (b.type === "tool_result") open.delete(b.tool_use_id);
  }
  return open.size > 0;
}
