import { foldContent, type ChatEvent, type ContentBlock, type ContentEvent } from "@coffer/protocol";

const CONTENT = new Set(["text_delta", "tool_call", "tool_result", "question", "question_answered"]);

/** What a live surface shows of a turn: its events folded with the one shared fold, as the page does. */
export function liveContent(events: readonly { event: ChatEvent }[]): readonly ContentBlock[] {
  return events
    .map((e) => e.event)
    .filter((e): e is ContentEvent & ChatEvent => CONTENT.has(e.type))
    .reduce<readonly ContentBlock[]>(foldContent, []);
}
