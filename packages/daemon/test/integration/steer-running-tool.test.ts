/**
 * The edges of "Steering keeps one tool card" (docs/decisions.md) with the scripted agent, whose
 * tool call runs until the test opens its gate: two steers while one call runs, and a turn
 * stopped while the call still runs. The stored rows and the page's fold of the live events
 * (apply-event.ts, the page's own code) must be the same rows.
 */
import type { ChatEvent, MessageOut } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { applyEvent, EMPTY_VIEW } from "../../../web/src/chat/live/apply-event.js";
import { mergeThread } from "../../../web/src/chat/live/thread-items.js";
import type { SseSubscription } from "../support/http-client.js";
import { script } from "../support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

const bash = (id: string, until: string) => ({ tool: { id, name: "Bash", input: { command: "sleep 6 && echo slept" }, output: "slept", until } });
const steer = async (id: string, text: string) => {
  const ack = await t.api.post(`/chat/conversations/${id}/messages`, { text, delivery: "steer" });
  expect(ack.body).toMatchObject({ queued: false, steered: true });
};
const stored = async (id: string): Promise<MessageOut[]> => (await t.api.get(`/chat/conversations/${id}/messages`)).body.messages;

/** The page's rows, built from the live events alone, against the stored rows. */
function expectLiveEqualsStored(sub: SseSubscription, rows: MessageOut[]): void {
  const view = sub.events.map((e) => e.event).reduce(applyEvent, EMPTY_VIEW);
  const live = mergeThread([], view.turns).map((item) =>
    item.kind === "message" ? { id: item.message.id, content: item.message.content } : { id: item.key, content: [...item.turn.blocks] },
  );
  expect(live).toEqual(rows.map((m) => ({ id: m.id, content: m.content })));
  for (const turn of view.turns.filter((x) => !x.removed)) {
    const row = rows.find((m) => m.id === turn.assistantMessageId)!;
    expect({ id: row.id, stop: turn.stopReason }).toEqual({ id: row.id, stop: row.stop_reason });
  }
}

describe("a steer while the tool runs (scripted agent)", () => {
  test("two steers while one call runs both follow its card, in order, and the reply after them takes the rest", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "let me " }, bash("t1", "two-steers"), { text: "done" }) });
    await sub.waitFor((e) => e.type === "tool_call");
    await steer(id, "one");
    await steer(id, "two");
    const steers = (await sub.waitForCount((e) => e.type === "steered", 2)).map((e) => e.event as Extract<ChatEvent, { type: "steered" }>);
    // The second steer came while the first reply still waited: the empty reply between them is removed.
    expect(steers.map((s) => s.previous_state)).toEqual(["running_tool", "removed"]);
    expect((await stored(id)).map((m) => [m.role, m.status, m.steered ?? false])).toEqual([
      ["user", "complete", false],
      ["assistant", "streaming", false],
      ["user", "complete", true],
      ["user", "complete", true],
      ["assistant", "streaming", false],
    ]);
    t.scripted.gates.open("two-steers");
    await sub.waitFor((e) => e.type === "turn_done");
    const rows = await stored(id);
    expect(rows.map((m) => [m.role, m.content.map((b) => (b.type === "text" ? b.text : b.type)), m.stop_reason])).toEqual([
      ["user", [expect.any(String)], null],
      ["assistant", ["let me ", "tool_use", "tool_result"], "steered"],
      ["user", ["one"], null],
      ["user", ["two"], null],
      ["assistant", ["done"], "end_turn"],
    ]);
    expectLiveEqualsStored(sub, rows);
    sub.close();
  });

  test("stopped while the call still runs: its reply ends stopped (the card says so), and the steered message stays", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await t.api.post(`/chat/conversations/${id}/messages`, { text: script(bash("t2", "never-opened")) });
    await sub.waitFor((e) => e.type === "tool_call");
    await steer(id, "change of plan");
    await sub.waitFor((e) => e.type === "steered");
    await t.api.post(`/chat/conversations/${id}/interrupt`, {});
    expect((await sub.waitFor((e) => e.type === "turn_done")).event).toMatchObject({ stop_reason: "interrupted" });
    const rows = await stored(id);
    expect(rows.map((m) => [m.role, m.status, m.content.map((b) => b.type), m.stop_reason, m.steered ?? false])).toEqual([
      ["user", "complete", ["text"], null, false],
      ["assistant", "complete", ["tool_use"], "interrupted", false],
      ["user", "complete", ["text"], null, true],
      ["assistant", "complete", [], "interrupted", false],
    ]);
    expectLiveEqualsStored(sub, rows);
    sub.close();
  });
});

describe("a file shared while a steer waits behind the running tool", () => {
  test("joins the reply that holds the tool call (where the agent's output goes), live and stored alike", async () => {
    const { mkdirSync, writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    mkdirSync(t.workspace, { recursive: true });
    writeFileSync(join(t.workspace, "result.txt"), "the tool's result");
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "let me " }, bash("t9", "share-held"), { text: "done" }) });
    const start = (await sub.waitFor((e) => e.type === "turn_start")).event as Extract<ChatEvent, { type: "turn_start" }>;
    await sub.waitFor((e) => e.type === "tool_call");
    await steer(id, "and then?");
    await sub.waitFor((e) => e.type === "steered");
    const outcome = await t.daemon.builtinTools.get("coffer__share_file")!.run({ path: "result.txt" }, { caller: "test", principal: { kind: "agent", agent: "scripted", conversationId: id } });
    expect(outcome.ok).toBe(true);
    const shared = (await sub.waitFor((e) => e.type === "file_shared")).event as Extract<ChatEvent, { type: "file_shared" }>;
    expect(shared.message_id).toBe(start.assistant_message_id);
    t.scripted.gates.open("share-held");
    await sub.waitFor((e) => e.type === "turn_done");
    const rows = await stored(id);
    expect(rows.filter((m) => m.attachments).map((m) => [m.id, m.attachments!.map((a) => a.name)])).toEqual([[start.assistant_message_id, ["result.txt"]]]);
    const view = sub.events.map((e) => e.event).reduce(applyEvent, EMPTY_VIEW);
    expect(view.turns.filter((x) => x.attachments.length).map((x) => x.assistantMessageId)).toEqual([start.assistant_message_id]);
    sub.close();
  });
});
