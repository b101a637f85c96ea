import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

test("a scripted turn streams over SSE and is persisted", async () => {
  const id = await t.conversation();
  const sub = await t.subscribe(id);
  const ack = await t.api.post(`/chat/conversations/${id}/messages`, { text: "hello" });
  expect(ack.status).toBe(202);
  expect(ack.body).toEqual({ queued: false });
  await sub.waitFor((e) => e.type === "turn_done");
  expect(sub.types()).toEqual(["queue_changed", "turn_start", "text_delta", "text_delta", "turn_done"]);
  const msgs = await t.api.get(`/chat/conversations/${id}/messages`);
  expect(msgs.body.messages.map((m: any) => [m.role, m.status, m.content])).toEqual([
    ["user", "complete", [{ type: "text", text: "hello" }]],
    ["assistant", "complete", [{ type: "text", text: "echo: hello" }]],
  ]);
  sub.close();
});
