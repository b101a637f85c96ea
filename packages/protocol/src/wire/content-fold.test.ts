import { expect, test } from "vitest";
import { foldContent, hasOpenTool, type ContentEvent } from "./content-fold.js";
import { toSegments } from "./content-segments.js";
import type { ContentBlock } from "../chat/content.js";
import { AgentEvent, ChatEvent, isTerminalEvent } from "../chat/events.js";

const fold = (events: AgentEvent[]) => events.reduce<readonly ContentBlock[]>(foldContent, []);

test("deltas grow one text block; tools interleave in emission order", () => {
  const blocks = fold([
    { type: "text_delta", text: "Hel" },
    { type: "text_delta", text: "lo. " },
    { type: "tool_call", tool_use_id: "1", tool_name: "Bash", tool_input: { c: 1 } },
    { type: "tool_result", tool_use_id: "1", tool_name: "Bash", output: "ok", error: null },
    { type: "text_delta", text: "Done" },
  ]);
  expect(blocks).toEqual([
    { type: "text", text: "Hello. " },
    { type: "tool_use", tool_use_id: "1", tool_name: "Bash", tool_input: { c: 1 } },
    { type: "tool_result", tool_use_id: "1", tool_name: "Bash", output: "ok", error: null },
    { type: "text", text: "Done" },
  ]);
});

test("an empty delta opens no text block and changes nothing", () => {
  const before = fold([{ type: "tool_call", tool_use_id: "1", tool_name: "Bash", tool_input: {} }]);
  expect(foldContent(before, { type: "text_delta", text: "" })).toBe(before);
  expect(fold([{ type: "text_delta", text: "" }])).toEqual([]);
});

test("missing tool input becomes {} and missing output null, as a stored row reads back", () => {
  const blocks = fold([
    { type: "tool_call", tool_use_id: "1", tool_name: "Read", tool_input: undefined },
    { type: "tool_result", tool_use_id: "1", tool_name: "Read", output: undefined, error: "denied" },
  ]);
  expect(blocks).toEqual([
    { type: "tool_use", tool_use_id: "1", tool_name: "Read", tool_input: {} },
    { type: "tool_result", tool_use_id: "1", tool_name: "Read", output: null, error: "denied" },
  ]);
  expect(JSON.parse(JSON.stringify(blocks))).toEqual(blocks);
});

test("terminal events change nothing; the fold never mutates what it was given", () => {
  const before = fold([{ type: "text_delta", text: "a" }]);
  const frozen = Object.freeze(before.map((b) => Object.freeze({ ...b })));
  expect(foldContent(frozen, { type: "turn_done", prompt_tokens: 1, completion_tokens: 1, stop_reason: "end_turn", model: null })).toBe(frozen);
  expect(foldContent(frozen, { type: "turn_error", code: "stream_ended", message: "y" })).toBe(frozen);
  const grown = foldContent(frozen, { type: "text_delta", text: "b" });
  expect(grown).toEqual([{ type: "text", text: "ab" }]);
  expect(frozen).toEqual([{ type: "text", text: "a" }]);
});

test("every agent event is a chat event; only turn_done and turn_error are terminal", () => {
  const agentTypes = AgentEvent.options.map((o) => o.shape.type.value);
  const chatTypes = ChatEvent.options.map((o) => o.shape.type.value);
  expect(chatTypes).toEqual(expect.arrayContaining(agentTypes));
  expect(chatTypes.filter((t) => isTerminalEvent({ type: t }))).toEqual(["turn_done", "turn_error"]);
});

test("a reply has an open tool while a call has no result; each call and its result are one segment", () => {
  const call = { type: "tool_call", tool_use_id: "1", tool_name: "Bash", tool_input: { command: "sleep 6" } } as const;
  const running = fold([{ type: "text_delta", text: "let me " }, call]);
  expect(hasOpenTool(running)).toBe(true);
  const done = foldContent(running, { type: "tool_result", tool_use_id: "1", tool_name: "Bash", output: "slept", error: null });
  expect(hasOpenTool(done)).toBe(false);
  expect(hasOpenTool([])).toBe(false);
  expect(toSegments(done)).toEqual([
    { kind: "text", text: "let me " },
    { kind: "tool", use: done[1], result: done[2] },
  ]);
  expect(toSegments(running)).toEqual([{ kind: "text", text: "let me " }, { kind: "tool", use: running[1], result: null }]);
});

test("a question stays where it was asked: open, then answered in place with the answer and its surface", () => {
  const q = { header: "Colour", text: "Which colour?", options: [{ label: "Blue", description: "" }], multi_select: false, allow_free_text: true };
  const asked: ContentEvent[] = [
    { type: "text_delta", text: "Let me ask. " },
    { type: "question", question_id: "q1", questions: [q], tool_use_id: "toolu_1" },
  ];
  const open = asked.reduce<readonly ContentBlock[]>(foldContent, []);
  expect(open[1]).toEqual({ type: "question", question_id: "q1", questions: [q], state: "open", answers: null, by: null, tool_use_id: "toolu_1" });
  const answered: ContentEvent[] = [
    { type: "question_answered", question_id: "q1", answers: [{ selected: ["Blue"] }], by: "telegram" },
    { type: "text_delta", text: "Blue it is." },
  ];
  const done = answered.reduce<readonly ContentBlock[]>(foldContent, open);
  expect(done).toEqual([
    { type: "text", text: "Let me ask. " },
    { type: "question", question_id: "q1", questions: [q], state: "answered", answers: [{ selected: ["Blue"] }], by: "telegram", tool_use_id: "toolu_1" },
    { type: "text", text: "Blue it is." },
  ]);
  // A second close (or one for a question this reply does not hold) changes nothing.
  expect(foldContent(done, { type: "question_answered", question_id: "q1", answers: null })).toBe(done);
  expect(foldContent(done, { type: "question_answered", question_id: "other", answers: null })).toBe(done);
  // Cancelled: kept, with no answer and no surface.
  const cancelled = foldContent(open, { type: "question_answered", question_id: "q1", answers: null });
  expect(cancelled[1]).toMatchObject({ state: "cancelled", answers: null, by: null });
  expect(JSON.parse(JSON.stringify(done))).toEqual(done);
});

test("Coffer's notice is its own block where it came, its own segment, and a valid agent event", () => {
  const notice = { type: "notice", code: "agent_session_reseeded", text: "The agent had lost this conversation's session; it was restarted with the conversation so far." } as const;
  expect(AgentEvent.parse(notice)).toEqual(notice);
  const blocks = fold([notice, { type: "text_delta", text: "Zorro." }]);
  expect(blocks).toEqual([notice, { type: "text", text: "Zorro." }]);
  expect(toSegments(blocks)).toEqual([
    { kind: "notice", block: notice },
    { kind: "text", text: "Zorro." },
  ]);
});
