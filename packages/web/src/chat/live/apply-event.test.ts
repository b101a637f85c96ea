import type { ChatEvent, MessageOut } from "@coffer/protocol";
import { describe, expect, it } from "vitest";
import { applyEvent, EMPTY_VIEW, reconcile, type LiveView } from "./apply-event.js";
import { mergeThread, toSegments } from "./thread-items.js";

const user = (id: string, seq: number, text = "hi"): MessageOut => ({
  id,
  conversation_id: "c1",
  seq,
  role: "user",
  content: [{ type: "text", text }],
  status: "complete",
  model_id: null,
  prompt_tokens: null,
  completion_tokens: null,
  stop_reason: null,
  error: null,
  created_at: "2026-01-01T00:00:00.000Z",
});
const assistant = (id: string, seq: number, status: MessageOut["status"], text: string): MessageOut => ({
  ...user(id, seq, text),
  role: "assistant",
  status,
});
const start = (turn: string, n: number): ChatEvent => ({
  type: "turn_start",
  turn_id: turn,
  user_message: user(`u${n}`, n * 2),
  assistant_message_id: `a${n}`,
  client_id: `client-${n}`,
});
const fold = (events: ChatEvent[], view: LiveView = EMPTY_VIEW) => events.reduce(applyEvent, view);

describe("applyEvent", () => {
  it("a file the agent shares joins the reply it was shared into, once, while the turn runs and after a steer", () => {
    const chart = { id: "f1", name: "chart.png", media_type: "image/png", size: 68 };
    const shared = (message: string, attachment = chart): ChatEvent => ({ type: "file_shared", turn_id: "t1", message_id: message, attachment, caption: null });
    const view = fold([start("t1", 1), { type: "text_delta", text: "here" }, shared("a1"), shared("a1")]);
    expect(view.turns[0]!.attachments).toEqual([chart]);
    const steered = fold(
      [
        { type: "steered", turn_id: "t1", user_message: user("u9", 9, "also"), previous_assistant_message_id: "a1", previous_state: "closed", assistant_message_id: "a2" },
        shared("a2", { ...chart, id: "f2", name: "notes.txt", media_type: "text/plain" }),
      ],
      view,
    );
    expect(steered.turns.map((t) => t.attachments.map((a) => a.name))).toEqual([["chart.png"], ["notes.txt"]]);
    expect(fold([shared("elsewhere")], steered)).toBe(steered);
  });

  it("a question stays in the reply where it was asked and closes there, even after a steer moved the turn on", () => {
    const q = { header: "", text: "Which?", options: [{ label: "A", description: "" }], multi_select: false, allow_free_text: false };
    const asked = fold([start("t1", 1), { type: "text_delta", text: "Hm. " }, { type: "question", question_id: "q1", questions: [q] }]);
    expect(asked.turns[0]!.blocks[1]).toMatchObject({ type: "question", state: "open" });
    const steered = fold(
      [{ type: "steered", turn_id: "t1", user_message: user("u9", 9, "also this"), previous_assistant_message_id: "a1", previous_state: "closed", assistant_message_id: "a2" }],
      asked,
    );
    const answered = fold([{ type: "question_answered", question_id: "q1", answers: [{ selected: ["A"] }], by: "web" }], steered);
    expect(answered.turns[0]!.blocks[1]).toMatchObject({ type: "question", state: "answered", answers: [{ selected: ["A"] }], by: "web" });
    expect(answered.turns[0]!.question).toBeNull();
    expect(answered.turns[1]!.blocks).toEqual([]);
  });

  it("holds the agent's open question on the turn until it is answered, cancelled or the turn ends", () => {
    const q = { header: "", text: "Which?", options: [{ label: "A", description: "" }], multi_select: false, allow_free_text: false };
    const asked = fold([start("t1", 1), { type: "question", question_id: "q1", questions: [q] }]);
    expect(asked.turns[0]!.question).toEqual({ questionId: "q1", questions: [q] });
    expect(fold([{ type: "question_answered", question_id: "other", answers: null }], asked).turns[0]!.question).not.toBeNull();
    expect(fold([{ type: "question_answered", question_id: "q1", answers: [{ selected: ["A"] }], by: "cli" }], asked).turns[0]!.question).toBeNull();
    const ended = fold([{ type: "turn_done", prompt_tokens: null, completion_tokens: null, stop_reason: "interrupted", model: null }], asked);
    expect(ended.turns[0]!.question).toBeNull();
  });

  it("a steered message closes the reply so far and the same turn continues after it", () => {
    const view = fold([
      start("t1", 1),
      { type: "text_delta", text: "before " },
      { type: "steered", turn_id: "t1", user_message: user("u-steer", 4, "use tabs"), previous_assistant_message_id: "a1", previous_state: "closed", assistant_message_id: "a1b" },
      { type: "text_delta", text: "after" },
      { type: "turn_done", prompt_tokens: 1, completion_tokens: 2, stop_reason: "end_turn", model: "m" },
    ]);
    expect(view.turns.map((t) => [t.userMessage.id, t.assistantMessageId, t.phase, t.stopReason, t.blocks])).toEqual([
      ["u1", "a1", "done", "steered", [{ type: "text", text: "before " }]],
      ["u-steer", "a1b", "done", "end_turn", [{ type: "text", text: "after" }]],
    ]);
    expect(view.running).toBe(false);
  });

  it("a steer while a tool runs leaves its call and result one card, ahead of the steered message", () => {
    const bash = { type: "tool_call", tool_use_id: "x", tool_name: "Bash", tool_input: { command: "sleep 6 && echo slept" } } as const;
    const steered: ChatEvent = { type: "steered", turn_id: "t1", user_message: { ...user("u-steer", 4, "also"), steered: true }, previous_assistant_message_id: "a1", previous_state: "running_tool", assistant_message_id: "a1b" };
    const during = fold([start("t1", 1), { type: "text_delta", text: "let me " }, bash, steered]);
    // Still running: the card is not closed (no "failed"), and the new reply has not begun.
    expect(during.turns.map((t) => [t.assistantMessageId, t.phase, t.waitsOnTool])).toEqual([
      ["a1", "streaming", true],
      ["a1b", "streaming", false],
    ]);
    const after = fold([{ type: "tool_result", tool_use_id: "x", tool_name: "Bash", output: "slept", error: null }, { type: "text_delta", text: "ok" }], during);
    expect(toSegments(after.turns[0]!.blocks)).toEqual([
      { kind: "text", text: "let me " },
      { kind: "tool", use: { type: "tool_use", tool_use_id: "x", tool_name: "Bash", tool_input: { command: "sleep 6 && echo slept" } }, result: { type: "tool_result", tool_use_id: "x", tool_name: "Bash", output: "slept", error: null } },
    ]);
    expect(after.turns[0]).toMatchObject({ phase: "done", stopReason: "steered", waitsOnTool: false });
    expect(after.outcomes.a1).toEqual({ stopReason: "steered", error: null });
    expect(after.turns[1]!.blocks).toEqual([{ type: "text", text: "ok" }]);
    const items = mergeThread([], after.turns);
    expect(items.map((i) => i.key)).toEqual(["u1", "a1", "u-steer", "a1b"]);
    // Stopped while the tool still ran: that reply ends as the turn did.
    const stopped = fold([{ type: "turn_done", prompt_tokens: null, completion_tokens: null, stop_reason: "interrupted", model: null }], during);
    expect(stopped.turns.map((t) => [t.phase, t.stopReason, t.waitsOnTool])).toEqual([
      ["done", "interrupted", false],
      ["done", "interrupted", false],
    ]);
  });

  it("a steer keeps an open question open: on the reply waiting on its tool, else moved on with the turn", () => {
    const q = { header: "", text: "Which?", options: [{ label: "A", description: "" }], multi_select: false, allow_free_text: false };
    const steer = (state: "running_tool" | "closed"): ChatEvent => ({ type: "steered", turn_id: "t1", user_message: { ...user("u-s", 4, "x"), steered: true }, previous_assistant_message_id: "a1", previous_state: state, assistant_message_id: "a1b" });
    // Claude Code: the question is its AskUserQuestion tool call, still open in the reply.
    const asking = fold([start("t1", 1), { type: "tool_call", tool_use_id: "q", tool_name: "AskUserQuestion", tool_input: {} }, { type: "question", question_id: "q1", questions: [q] }, steer("running_tool")]);
    expect(asking.turns.map((t) => t.question?.questionId ?? null)).toEqual(["q1", null]);
    const answered = fold([{ type: "question_answered", question_id: "q1", answers: [{ selected: ["A"] }], by: "web" }], asking);
    expect(answered.turns.map((t) => t.question)).toEqual([null, null]);
    // Codex: the question is no tool call of the reply, so the reply closes and the question moves on.
    const codex = fold([start("t1", 1), { type: "text_delta", text: "hm" }, { type: "question", question_id: "q2", questions: [q] }, steer("closed")]);
    expect(codex.turns.map((t) => t.question?.questionId ?? null)).toEqual([null, "q2"]);
  });

  it("a steer before the reply said anything removes the empty reply: no gap, even in an older fetch", () => {
    const view = fold([
      start("t1", 1),
      { type: "steered", turn_id: "t1", user_message: { ...user("u-steer", 3, "also"), steered: true }, previous_assistant_message_id: "a1", previous_state: "removed", assistant_message_id: "a1b" },
      { type: "text_delta", text: "reply" },
    ]);
    const stale = [user("u1", 2), assistant("a1", 3, "streaming", "")];
    expect(mergeThread(stale, view.turns).map((i) => i.key)).toEqual(["u1", "u-steer", "a1b"]);
    const fresh = [user("u1", 2), { ...user("u-steer", 3, "also"), steered: true as const }, assistant("a1b", 4, "streaming", "")];
    expect(reconcile(view, new Map(fresh.map((m) => [m.id, m]))).turns.map((t) => t.assistantMessageId)).toEqual(["a1b"]);
  });

  it("steer_fallback is kept for a notice until the next turn starts", () => {
    const view = fold([start("t1", 1), { type: "steer_fallback", text: "x", reason: "not_steerable", pending_id: "p1" }]);
    expect(view.steerFallback).toEqual({ text: "x", reason: "not_steerable" });
    expect(applyEvent(view, start("t2", 2)).steerFallback).toBeNull();
  });

  it("builds a turn from its events in the order the agent produced them", () => {
    const view = fold([
      start("t1", 1),
      { type: "text_delta", text: "Hel" },
      { type: "text_delta", text: "lo" },
      { type: "tool_call", tool_use_id: "x", tool_name: "Bash", tool_input: { command: "ls" } },
      { type: "tool_result", tool_use_id: "x", tool_name: "Bash", output: "a\nb", error: null },
      { type: "text_delta", text: "done" },
      { type: "turn_done", prompt_tokens: 5, completion_tokens: 7, stop_reason: "end_turn", model: "m1" },
    ]);
    const turn = view.turns[0]!;
    expect(view.running).toBe(false);
    expect(turn.phase).toBe("done");
    expect(turn.model).toBe("m1");
    expect(turn.completionTokens).toBe(7);
    expect(turn.blocks.map((b) => b.type)).toEqual(["text", "tool_use", "tool_result", "text"]);
    expect(turn.blocks[0]).toEqual({ type: "text", text: "Hello" });
    expect(toSegments(turn.blocks).map((s) => s.kind)).toEqual(["text", "tool", "text"]);
  });

  it("records an interrupted turn as stopped and a failed one with its reason", () => {
    const stopped = fold([start("t1", 1), { type: "turn_done", prompt_tokens: null, completion_tokens: null, stop_reason: "interrupted", model: null }]);
    expect(stopped.outcomes.a1).toEqual({ stopReason: "interrupted", error: null });
    const failed = fold([start("t1", 1), { type: "turn_error", code: "agent_crashed", message: "boom" }]);
    expect(failed.turns[0]!.phase).toBe("failed");
    expect(failed.outcomes.a1!.error!.message).toBe("boom");
    expect(failed.turns[0]!.error).toEqual({ code: "agent_crashed", message: "boom" });
  });

  it("a failed reply's error is not repeated in the banner; an error no reply holds is", () => {
    // The failed reply says why in its footer (by its Retry): no banner repeats it.
    const failed = fold([start("t1", 1), { type: "turn_error", code: "model_unreachable", message: "gave up" }]);
    expect(failed.turns[0]!.error).toEqual({ code: "model_unreachable", message: "gave up" });
    expect(failed.error).toBeNull();
    // An error no reply holds (a queued message that could not start) still reaches the banner.
    const orphan = fold([{ type: "turn_error", code: "AGENT_UNAVAILABLE", message: "the queued message could not start: not installed" }]);
    expect(orphan.error).toEqual({ code: "AGENT_UNAVAILABLE", message: "the queued message could not start: not installed" });
  });

  it("ignores stray deltas outside a turn and keeps the queue snapshot", () => {
    const view = fold([
      { type: "text_delta", text: "late" },
      { type: "queue_changed", pending: [{ id: "p1", text: "next", truncated: false, length: 4 }], paused: true },
    ]);
    expect(view.turns).toEqual([]);
    expect(view.pending).toEqual([{ id: "p1", text: "next", truncated: false, length: 4 }]);
    expect(view.paused).toBe(true);
    expect(view.queueKnown).toBe(true);
  });

  it("on resync drops the half-seen turn so the replay rebuilds it once, without duplicate text", () => {
    const before = fold([start("t1", 1), { type: "text_delta", text: "abc" }]);
    const after = fold([{ type: "resync", reason: "old cursor" }, start("t1", 1), { type: "text_delta", text: "abcdef" }], before);
    expect(after.resyncs).toBe(1);
    expect(after.turns).toHaveLength(1);
    expect(after.turns[0]!.blocks).toEqual([{ type: "text", text: "abcdef" }]);
  });

  it("marks the view deleted when the conversation goes", () => {
    expect(fold([{ type: "conversation_deleted" }]).deleted).toBe(true);
  });

  it("reconcile drops settled turns once the persisted thread holds them, never a streaming one", () => {
    const view = fold([start("t1", 1), { type: "turn_done", prompt_tokens: 1, completion_tokens: 1, stop_reason: "end_turn", model: "m" }, start("t2", 2)]);
    const persisted = new Map([["a1", assistant("a1", 3, "complete", "x")], ["a2", assistant("a2", 5, "streaming", "")]]);
    const next = reconcile(view, persisted);
    expect(next.turns.map((t) => t.turnId)).toEqual(["t2"]);
    expect(next.outcomes.a1).toBeDefined(); // "Stopped"/"Failed" labels outlive reconciliation
  });
});

describe("mergeThread", () => {
  it("lets the live turn stand in for its streaming row and appends turns the page does not hold yet", () => {
    const view = fold([start("t1", 1), { type: "text_delta", text: "live" }]);
    const persisted = [user("u0", 0), assistant("a0", 1, "complete", "old"), user("u1", 2), assistant("a1", 3, "streaming", "li")];
    expect(mergeThread(persisted, view.turns).map((i) => `${i.kind}:${i.key}`)).toEqual(["message:u0", "message:a0", "message:u1", "live:a1"]);
    expect(mergeThread(persisted.slice(0, 2), view.turns).map((i) => `${i.kind}:${i.key}`)).toEqual(["message:u0", "message:a0", "message:u1", "live:a1"]);
  });

  it("shows the persisted row once both the turn and the row are settled (no bubble left spinning)", () => {
    const view = fold([start("t1", 1), { type: "turn_done", prompt_tokens: 1, completion_tokens: 1, stop_reason: "end_turn", model: "m" }]);
    const items = mergeThread([user("u1", 2), assistant("a1", 3, "complete", "final")], view.turns);
    expect(items.map((i) => i.kind)).toEqual(["message", "message"]);
  });
});

describe("applyEvent folds content the way the daemon stores it", () => {
  it("an empty delta adds no block and a tool call without input shows {}", () => {
    const view = fold([
      start("t1", 1),
      { type: "text_delta", text: "" },
      { type: "tool_call", tool_use_id: "x", tool_name: "Read", tool_input: undefined },
      { type: "tool_result", tool_use_id: "x", tool_name: "Read", output: undefined, error: null },
    ]);
    expect(view.turns[0]!.blocks).toEqual([
      { type: "tool_use", tool_use_id: "x", tool_name: "Read", tool_input: {} },
      { type: "tool_result", tool_use_id: "x", tool_name: "Read", output: null, error: null },
    ]);
    const again = applyEvent(view, { type: "text_delta", text: "" });
    expect(again).toBe(view);
  });
});

describe("applyEvent: retries", () => {
  it("a retry notice is live state, not content, and the next output or the terminal clears it", () => {
    const retry: ChatEvent = { type: "retrying", attempt: 3, max_attempts: 10, message: "connection refused", delay_ms: 2000 };
    const retrying = fold([start("t1", 1), retry]);
    expect(retrying.turns[0]!.retrying).toEqual(retry);
    expect(retrying.turns[0]!.blocks).toEqual([]);
    expect(fold([{ type: "text_delta", text: "back" }], retrying).turns[0]!.retrying).toBeNull();
    const failed = fold([{ type: "turn_error", code: "model_unreachable", message: "gave up" }], retrying);
    expect(failed.turns[0]!).toMatchObject({ phase: "failed", retrying: null });
  });
});

describe("applyEvent: a plan-limit hold", () => {
  it("queue_changed carries the hold while it lasts and drops it when it lifts", () => {
    const hold = { reason: "plan_limit" as const, until: "2026-12-02T14:05:00.000Z" };
    const held = fold([{ type: "queue_changed", pending: [], paused: true, hold }]);
    expect(held.hold).toEqual(hold);
    expect(fold([{ type: "queue_changed", pending: [], paused: false }], held).hold).toBeNull();
  });
});
