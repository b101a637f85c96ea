import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { script } from "../../daemon/test/support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { cofferWatching } from "./support/run-cli.js";

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

const coffer = (args: string[]) => cofferWatching(t, args);

describe("coffer chat: steering", () => {
  test("send --steer puts the text into the running turn and prints the turn from there to its end", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "working " }, { await_steer: true }, { text: " done" }) });
    await sub.waitFor((e) => e.type === "text_delta");
    const r = await coffer(["chat", "send", id, "--steer", "use", "tabs"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("── you (steered into the running turn)\nuse tabs");
    expect(r.stdout).toContain("steered: use tabs done");
    expect(r.stdout).not.toContain("working");
    expect(t.scripted.turns.filter((x) => x.conversationId === id).flatMap((x) => x.steered)).toEqual(["use tabs"]);
    sub.close();
  });

  test("queue --send-now n steers that queued message; --no-wait --steer on an idle conversation starts a turn", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "busy " }, { await_steer: true }, { gate: "cli-sn" }) });
    await sub.waitFor((e) => e.type === "text_delta");
    await t.api.post(`/chat/conversations/${id}/messages`, { text: "one" });
    await t.api.post(`/chat/conversations/${id}/messages`, { text: "two" });
    const r = await coffer(["chat", "queue", id, "--send-now", "2"]);
    expect(r.stdout).toBe("steered into the running turn\n");
    expect((await t.api.get(`/chat/conversations/${id}/pending`)).body.pending.map((p: any) => p.text)).toEqual(["one"]);
    expect((await coffer(["chat", "queue", id, "--send-now", "5"])).code).not.toBe(0);
    t.scripted.gates.open("cli-sn");
    await sub.waitForCount((e) => e.type === "turn_done", 2);

    const idle = await coffer(["chat", "send", id, "--steer", "--no-wait", "hello"]);
    expect(idle.stdout).toBe("started\n");
    await sub.waitForCount((e) => e.type === "turn_done", 3);
    sub.close();
  });
});
