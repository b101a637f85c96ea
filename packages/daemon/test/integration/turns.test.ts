import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { script } from "../support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

const send = (id: string, text: string, client_id?: string) =>
  t.api.post(`/chat/conversations/${id}/messages`, client_id ? { text, client_id } : { text });
const messages = async (id: string) => (await t.api.get(`/chat/conversations/${id}/messages`)).body.messages;
const texts = (m: any) => m.content.filter((b: any) => b.type === "text").map((b: any) => b.text).join("");

function auditRows(action: string) {
  const d = new Database(join(t.home, "coffer.db"), { readonly: true });
  try {
    return (d.prepare("SELECT actor, details FROM audit_log WHERE action = ? ORDER BY id").all(action) as any[]).map((r) => ({
      actor: r.actor,
      details: JSON.parse(r.details),
    }));
  } finally {
    d.close();
  }
}

describe("a turn", () => {
  acceptance("008-agent-chat", "send a message and receive a streamed reply", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    const ack = await send(id, script({ text: "Hel" }, { gate: "g1" }, { text: "lo" }));
    expect(ack).toMatchObject({ status: 202, body: { queued: false } });
    // The first delta arrives while the agent is still mid-reply: it streams.
    const first = await sub.waitFor((e) => e.type === "text_delta");
    expect(first.event).toEqual({ type: "text_delta", text: "Hel" });
    expect(sub.types()).not.toContain("turn_done");
    t.scripted.gates.open("g1");
    await sub.waitFor((e) => e.type === "turn_done");
    expect(sub.types()).toEqual(["queue_changed", "turn_start", "text_delta", "text_delta", "turn_done"]);
    const [user, assistant] = await messages(id);
    expect(user).toMatchObject({ role: "user", seq: 0, status: "complete" });
    expect(assistant).toMatchObject({ role: "assistant", seq: 1, status: "complete", content: [{ type: "text", text: "Hello" }] });
    sub.close();
  });

  test("tools and text are stored in the order the agent produced them", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ text: "Looking. " }, { tool: { id: "t1", name: "Bash", input: { command: "ls" }, output: "a b" } }, { text: "Found it." }, { tool: { id: "t2", name: "Read", error: "denied" } }));
    await sub.waitFor((e) => e.type === "turn_done");
    const assistant = (await messages(id))[1];
    expect(assistant.content.map((b: any) => b.type)).toEqual(["text", "tool_use", "tool_result", "text", "tool_use", "tool_result"]);
    expect(assistant.content[2]).toEqual({ type: "tool_result", tool_use_id: "t1", tool_name: "Bash", output: "a b", error: null });
    expect(assistant.content[5]).toMatchObject({ tool_use_id: "t2", error: "denied" });
    sub.close();
  });

  acceptance("008-agent-chat", "token usage and audit", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ text: "done" }, { done: { prompt_tokens: 12, completion_tokens: 6 } }));
    const done = await sub.waitFor((e) => e.type === "turn_done");
    expect(done.event).toMatchObject({ prompt_tokens: 12, completion_tokens: 6, stop_reason: "end_turn" });
    const assistant = (await messages(id))[1];
    expect(assistant).toMatchObject({ prompt_tokens: 12, completion_tokens: 6 });
    const audit = auditRows("chat_turn_completed").find((r) => r.details.conversation_id === id);
    expect(audit).toMatchObject({
      actor: "agent",
      details: { conversation_id: id, model_id: "scripted-1", status: "complete", prompt_tokens: 12, completion_tokens: 6 },
    });
    // The same entry, read back through the API (newest first, filtered by action).
    const read = await t.api.get("/audit?action=chat_turn_completed&limit=1");
    expect(read.body.entries[0]).toMatchObject({ actor: "agent", action: "chat_turn_completed", details: { conversation_id: id, prompt_tokens: 12 } });
    sub.close();
  });

  acceptance("008-agent-chat", "model selection is recorded", async () => {
    const id = await t.conversation({ model: "m-xyz" });
    const sub = await t.subscribe(id);
    await send(id, "one");
    expect((await sub.waitFor((e) => e.type === "turn_done")).event).toMatchObject({ model: "m-xyz" });
    await t.api.patch(`/chat/conversations/${id}/agent-config`, { model: "m-abc" });
    await send(id, "two");
    await sub.waitForCount((e) => e.type === "turn_done", 2);
    const [, first, , second] = await messages(id);
    expect(first.model_id).toBe("m-xyz");
    expect(second.model_id).toBe("m-abc");
    // The model change affected only later turns, and reached the agent itself.
    expect(t.scripted.turns.filter((r) => r.conversationId === id).map((r) => r.model)).toEqual(["m-xyz", "m-abc"]);
    sub.close();
  });

  test("the first message titles the conversation (at most 60 characters)", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    const long = "Investigate why the nightly deploy to the staging cluster keeps timing out after midnight";
    await send(id, long);
    await sub.waitFor((e) => e.type === "turn_done");
    const title = (await t.api.get(`/chat/conversations/${id}`)).body.title as string;
    expect(title.length).toBeLessThanOrEqual(60);
    expect(long.startsWith(title.replace(/…$/, ""))).toBe(true);
    sub.close();
  });

  test("a failing agent ends the turn with exactly one turn_error and a failed row", async () => {
    for (const [steps, code] of [
      [[{ text: "part" }, { error: { code: "agent_api_error", message: "no such model" } }], "agent_api_error"],
      [[{ text: "part" }, { throw: "boom" }], "INTERNAL_ERROR"],
      [[{ text: "part" }, { end: true }], "stream_ended"],
    ] as const) {
      const id = await t.conversation();
      const sub = await t.subscribe(id);
      await send(id, script(...(steps as any)));
      const err = await sub.waitFor((e) => e.type === "turn_error");
      expect(err.event).toMatchObject({ code });
      // The conversation stays usable: the next turn runs.
      await send(id, "again");
      await sub.waitFor((e) => e.type === "turn_done");
      expect(sub.types().filter((x) => x === "turn_error" || x === "turn_done")).toEqual(["turn_error", "turn_done"]);
      const [, failed, , ok] = await messages(id);
      expect(failed).toMatchObject({ status: "failed", stop_reason: null, error: { code }, content: [{ type: "text", text: "part" }] });
      expect(ok).toMatchObject({ status: "complete", stop_reason: "end_turn", error: null });
      sub.close();
    }
  });

  test("a silent agent trips the watchdog: turn_timeout, never streaming forever", async () => {
    const local = await startTestDaemon({ timings: { flushIntervalMs: 500, watchdogMs: 150, stopDeadlineMs: 1000 } });
    try {
      const id = await local.conversation();
      const sub = await local.subscribe(id);
      await local.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "thinking" }, { hang: true }) });
      const err = await sub.waitFor((e) => e.type === "turn_error");
      expect(err.event).toMatchObject({ type: "turn_error", code: "turn_timeout" });
      const assistant = (await local.api.get(`/chat/conversations/${id}/messages`)).body.messages[1];
      expect(assistant).toMatchObject({ status: "failed", content: [{ type: "text", text: "thinking" }] });
      sub.close();
    } finally {
      await local.close();
    }
  });

  test("an agent that cannot start answers the send synchronously and persists nothing", async () => {
    const id = await t.conversation();
    t.scripted.failBuilds = "the agent's CLI is missing";
    try {
      const res = await send(id, "hello");
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: "AGENT_UNAVAILABLE", message: "the agent's CLI is missing" });
    } finally {
      t.scripted.failBuilds = null;
    }
    expect(await messages(id)).toEqual([]);
    expect((await send(id, "now it works")).body).toEqual({ queued: false });
  });

  test("the same client_id twice makes one message, whether it started or queued", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    const a = await send(id, script({ gate: "idem" }), "c-1");
    const b = await send(id, script({ gate: "idem" }), "c-1");
    expect(a.body).toEqual({ queued: false });
    expect(b.body).toEqual({ queued: false });
    const q1 = await send(id, "queued once", "c-2");
    const q2 = await send(id, "queued once", "c-2");
    expect(q1.body.queued).toBe(true);
    expect(q2.body).toEqual(q1.body);
    expect((await t.api.get(`/chat/conversations/${id}/pending`)).body.pending).toHaveLength(1);
    t.scripted.gates.open("idem");
    await sub.waitForCount((e) => e.type === "turn_done", 2);
    expect((await messages(id)).filter((m: any) => m.role === "user")).toHaveLength(2);
    sub.close();
  });

  test("a client that disconnects never stops the turn", async () => {
    const id = await t.conversation();
    const watcher = await t.subscribe(id);
    const leaver = await t.subscribe(id);
    await send(id, script({ text: "a" }, { gate: "leave" }, { text: "b" }));
    await leaver.waitFor((e) => e.type === "text_delta");
    leaver.close();
    await leaver.waitForEnd();
    t.scripted.gates.open("leave");
    await watcher.waitFor((e) => e.type === "turn_done");
    expect(texts((await messages(id))[1])).toBe("ab");
    watcher.close();
  });
});
