import type { Question } from "@coffer/protocol";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { ChatThrottle } from "./chat-throttle.js";
import type { BotConnection, EditedMessage, OutgoingMessage } from "./ports.js";
import { QuestionBoard } from "./question-board.js";

const INTERVAL = 300;
const checks: Question = {
  header: "",
  text: "Which checks?",
  options: [
    { label: "lint", description: "" },
    { label: "test", description: "" },
    { label: "e2e", description: "" },
  ],
  multi_select: true,
  allow_free_text: false,
};

/** A courier that delivers at once (message id "m1") and runs ephemeral work in order, as the real one does. */
function rig() {
  const edits: { at: number; message: EditedMessage }[] = [];
  const sent: OutgoingMessage[] = [];
  let chain = Promise.resolve();
  let delivered = false;
  const conn = { edit: async (_c: string, _m: string, message: EditedMessage) => void edits.push({ at: Date.now(), message }) } as unknown as BotConnection;
  const courier = {
    enqueue: (_chat: string, _thread: string | null, messages: readonly OutgoingMessage[]) => {
      sent.push(...messages);
      delivered = true;
    },
    sentId: () => (delivered ? "m1" : null),
    tryEphemeral: (work: (c: BotConnection) => Promise<void>) => {
      chain = chain.then(() => work(conn));
      return true;
    },
  };
  const throttle = new ChatThrottle();
  const board = new QuestionBoard({ courier, clock: { now: () => Date.now() }, throttle, editIntervalMs: INTERVAL, surface: "telegram" });
  return { board, edits, sent, throttle, settle: () => chain };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the question board (buttons-question, buttons-withdrawn)", () => {
  test("a burst of toggles costs one edit per throttle slot, the last showing every pick", async () => {
    const r = rig();
    r.board.show("q1", "chat", null, [checks]);
    expect(r.sent[0]!.buttons!.flat().map((b) => b.text)).toEqual(["lint", "test", "e2e", "Send"]);
    r.board.toggle("q1", 0);
    await r.settle();
    expect(r.edits).toHaveLength(1);
    expect(r.edits[0]!.message.text).toContain("Picked: lint");
    // Within the slot the first edit took: held, and folded into one.
    r.board.toggle("q1", 1);
    r.board.toggle("q1", 2);
    r.board.toggle("q1", 1);
    await r.settle();
    expect(r.edits).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    await r.settle();
    expect(r.edits).toHaveLength(2);
    expect(r.edits[1]!.at - r.edits[0]!.at).toBeGreaterThanOrEqual(INTERVAL);
    expect(r.edits[1]!.message.text).toContain("Picked: lint, e2e");
    expect(r.edits[1]!.message.buttons!.flat().map((b) => b.text)).toEqual(["✓ lint", "test", "✓ e2e", "Send (2)"]);
    expect(r.board.open("q1", "chat")!.picks).toEqual(new Set([0, 2]));
    // Nothing changed since: no further edit.
    await vi.advanceTimersByTimeAsync(INTERVAL * 3);
    expect(r.edits).toHaveLength(2);
  });

  test("closing edits the message once, without buttons, and it stays closed", async () => {
    const r = rig();
    r.board.show("q1", "chat", null, [checks]);
    // The chat's last edit (a progress message) was just now: the close waits for the slot.
    r.throttle.used("chat", null, Date.now(), INTERVAL);
    r.board.close("q1", [{ selected: ["lint"] }], "web");
    await r.settle();
    expect(r.edits).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    await r.settle();
    expect(r.edits).toHaveLength(1);
    expect(r.edits[0]!.message).toEqual({ text: "❓ Which checks?\n1. lint\n2. test\n3. e2e\n\n☑️ Answered from the page: lint" });
    expect(r.board.open("q1", "chat")).toBeNull();
    r.board.toggle("q1", 1);
    r.board.close("q1", null, null);
    await vi.advanceTimersByTimeAsync(INTERVAL * 2);
    expect(r.edits).toHaveLength(1);
  });

  test("a question open in another chat is not this chat's to toggle", () => {
    const r = rig();
    r.board.show("q1", "chat", null, [checks]);
    expect(r.board.open("q1", "other")).toBeNull();
    expect(r.board.open("nope", "chat")).toBeNull();
  });

  test("a chat the owner left is never edited again, not even by an edit already waiting for its slot", async () => {
    const r = rig();
    r.board.show("q1", "chat", null, [checks]);
    r.throttle.used("chat", null, Date.now(), INTERVAL);
    r.board.toggle("q1", 0);
    r.board.forgetChatsExcept("another-chat");
    await vi.advanceTimersByTimeAsync(INTERVAL * 2);
    await r.settle();
    expect(r.edits).toHaveLength(0);
    r.board.close("q1", null, null);
    expect(r.board.open("q1", "chat")).toBeNull();
  });
});
