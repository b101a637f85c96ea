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

const send = (id: string, text: string) => t.api.post(`/chat/conversations/${id}/messages`, { text });
const pending = async (id: string) => (await t.api.get(`/chat/conversations/${id}/pending`)).body;
const userTexts = async (id: string) =>
  (await t.api.get(`/chat/conversations/${id}/messages`)).body.messages
    .filter((m: any) => m.role === "user")
    .map((m: any) => m.content[0].text);

describe("the pending queue", () => {
  acceptance("008-agent-chat", "a queued message runs after the current turn", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ text: "first" }, { gate: "q1" }));
    await sub.waitFor((e) => e.type === "text_delta");
    const second = await send(id, "msg2");
    expect(second).toMatchObject({ status: 202, body: { queued: true } });
    const queued = await sub.waitFor((e) => e.type === "queue_changed" && e.pending.length === 1);
    expect(queued.event).toMatchObject({ pending: [{ id: second.body.pending_id, text: "msg2" }], paused: false });
    t.scripted.gates.open("q1");
    // Its own turn, after the first one: one turn per message, never merged.
    const starts = await sub.waitForCount((e) => e.type === "turn_start", 2);
    expect((starts[1]!.event as any).user_message.content[0].text).toBe("msg2");
    await sub.waitForCount((e) => e.type === "turn_done", 2);
    expect((await pending(id)).pending).toEqual([]);
    expect(await userTexts(id)).toEqual([script({ text: "first" }, { gate: "q1" }), "msg2"]);
    sub.close();
  });

  acceptance("008-agent-chat", "second message queues during a streaming turn", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ text: "streaming" }, { gate: "q2" }));
    await sub.waitFor((e) => e.type === "text_delta");
    const replies = await Promise.all([send(id, "two"), send(id, "three")]);
    for (const r of replies) expect(r).toMatchObject({ status: 202, body: { queued: true } });
    expect((await pending(id)).pending.map((p: any) => p.text)).toEqual(["two", "three"]);
    t.scripted.gates.open("q2");
    await sub.waitForCount((e) => e.type === "turn_done", 3);
    expect((await userTexts(id)).slice(1)).toEqual(["two", "three"]);
    sub.close();
  });

  acceptance("008-agent-chat", "interrupting a turn pauses the pending queue", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ text: "partial " }, { hang: true }));
    await sub.waitFor((e) => e.type === "text_delta");
    await send(id, "held-1");
    await send(id, "held-2");
    const stop = await t.api.post(`/chat/conversations/${id}/interrupt`);
    expect(stop.status).toBe(204);
    expect((await sub.waitFor((e) => e.type === "turn_done")).event).toMatchObject({ stop_reason: "interrupted" });
    await sub.waitFor((e) => e.type === "queue_changed" && e.paused);
    // Held, not run: the interrupted turn's reply is the last message.
    const after = await pending(id);
    expect(after).toMatchObject({ paused: true, pending: [{ text: "held-1" }, { text: "held-2" }] });
    expect(await userTexts(id)).toHaveLength(1);
    expect(sub.types().filter((x) => x === "turn_start")).toHaveLength(1);

    // The owner resumes with the queue as it is: the held messages run in order.
    const resumed = await t.api.put(`/chat/conversations/${id}/pending`, { pending: after.pending });
    expect(resumed.status).toBe(200);
    expect(resumed.body.paused).toBe(false);
    await sub.waitForCount((e) => e.type === "turn_done", 3);
    expect((await userTexts(id)).slice(1)).toEqual(["held-1", "held-2"]);
    sub.close();
  });

  test("a plain send after an interrupt resumes the held queue: older messages first", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ hang: true }));
    await sub.waitFor((e) => e.type === "turn_start");
    await send(id, "held");
    await t.api.post(`/chat/conversations/${id}/interrupt`);
    expect((await pending(id)).paused).toBe(true);
    expect((await send(id, "newer")).body.queued).toBe(true);
    await sub.waitForCount((e) => e.type === "turn_done", 3);
    expect((await userTexts(id)).slice(1)).toEqual(["held", "newer"]);
    sub.close();
  });

  acceptance("008-agent-chat", "editing a queued message re-queues it at the tail", async () => {
    // The API half of the edit flow (the page's composer half is covered in the web tests):
    // pull the item out of the queue, amend it, send it again, and it runs last.
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ gate: "edit" }));
    await sub.waitFor((e) => e.type === "turn_start");
    await send(id, "first queued");
    await send(id, "second queued");
    const { pending: items } = await pending(id);
    const without = await t.api.put(`/chat/conversations/${id}/pending`, { pending: items.slice(1) });
    expect(without.body.pending.map((p: any) => p.text)).toEqual(["second queued"]);
    expect(without.body.pending[0].id).toBe(items[1].id); // the survivor keeps its identity
    await send(id, "first queued, amended");
    expect((await pending(id)).pending.map((p: any) => p.text)).toEqual(["second queued", "first queued, amended"]);
    t.scripted.gates.open("edit");
    await sub.waitForCount((e) => e.type === "turn_done", 3);
    expect((await userTexts(id)).slice(1)).toEqual(["second queued", "first queued, amended"]);
    sub.close();
  });

  test("PUT pending reorders and drops; when idle it starts the new head", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ hang: true }));
    await sub.waitFor((e) => e.type === "turn_start");
    for (const x of ["a", "b", "c"]) await send(id, x);
    await t.api.post(`/chat/conversations/${id}/interrupt`);
    const q = (await pending(id)).pending;
    const reordered = await t.api.put(`/chat/conversations/${id}/pending`, { pending: [q[2], q[0]] });
    expect(reordered.status).toBe(200);
    await sub.waitForCount((e) => e.type === "turn_done", 3);
    expect((await userTexts(id)).slice(1)).toEqual(["c", "a"]);
    const bad = await t.api.put(`/chat/conversations/${id}/pending`, { pending: [{ text: "" }] });
    expect(bad.status).toBe(422);
    expect((await t.api.put(`/chat/conversations/nope/pending`, { pending: [] })).status).toBe(404);
    sub.close();
  });

  test("a held queue can be tidied without running it (resume: false); emptying it clears the pause", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ hang: true }));
    await sub.waitFor((e) => e.type === "turn_start");
    for (const x of ["keep", "drop"]) await send(id, x);
    await t.api.post(`/chat/conversations/${id}/interrupt`);
    const [keep] = (await pending(id)).pending;
    const tidied = await t.api.put(`/chat/conversations/${id}/pending`, { pending: [keep], resume: false });
    expect(tidied.body).toEqual({ pending: [keep], paused: true });
    expect(t.daemon.turns.lifecycle.isRunning(id)).toBe(false);
    const emptied = await t.api.put(`/chat/conversations/${id}/pending`, { pending: [], resume: false });
    expect(emptied.body).toEqual({ pending: [], paused: false });
    expect(sub.types().filter((x) => x === "turn_start")).toHaveLength(1);
    sub.close();
  });

  test("a stale view never queues a message again once it has started (it would run twice)", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ text: "one" }, { gate: "stale-1" }));
    await sub.waitFor((e) => e.type === "turn_start");
    await send(id, script({ text: "two" }, { gate: "stale-2" }));
    await send(id, "three");
    const view = (await pending(id)).pending; // the page's copy: [two, three]
    t.scripted.gates.open("stale-1");
    await sub.waitForCount((e) => e.type === "turn_start", 2); // "two" has left the queue and runs
    // The page, still holding its old copy, reorders: [three, two].
    const put = await t.api.put(`/chat/conversations/${id}/pending`, { pending: [view[1], view[0]], resume: false });
    expect(put.body.pending.map((p: any) => p.text)).toEqual(["three"]);
    t.scripted.gates.open("stale-2");
    await sub.waitForCount((e) => e.type === "turn_done", 3);
    expect((await userTexts(id)).slice(1)).toEqual([script({ text: "two" }, { gate: "stale-2" }), "three"]);
    sub.close();
  });

  test("a message queued from another surface since the client's view (seen) is kept, at the tail", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ hang: true }));
    await sub.waitFor((e) => e.type === "turn_start");
    for (const x of ["a", "b"]) await send(id, x);
    const view = (await pending(id)).pending; // this client's copy: [a, b]
    await send(id, "from the phone"); // another surface, meanwhile
    // This client drops "a" and moves nothing else; it never saw "from the phone".
    const put = await t.api.put(`/chat/conversations/${id}/pending`, {
      pending: [view[1]],
      resume: false,
      seen: view.map((p: any) => p.id),
    });
    expect(put.body.pending.map((p: any) => p.text)).toEqual(["b", "from the phone"]);
    // Without `seen` the list is the whole queue, as before.
    const replaced = await t.api.put(`/chat/conversations/${id}/pending`, { pending: [view[1]], resume: false });
    expect(replaced.body.pending.map((p: any) => p.text)).toEqual(["b"]);
    await t.api.post(`/chat/conversations/${id}/interrupt`);
    sub.close();
  });

  test("a queued head that cannot start stays at the head, the queue pauses, and a turn_error says why", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ gate: "fail-next" }));
    await sub.waitFor((e) => e.type === "turn_start");
    await send(id, "survivor");
    t.scripted.failBuilds = "agent went away";
    try {
      t.scripted.gates.open("fail-next");
      const err = await sub.waitFor((e) => e.type === "turn_error");
      expect(err.event).toMatchObject({ code: "AGENT_UNAVAILABLE" });
      expect((err.event as any).message).toContain("agent went away");
      expect(await pending(id)).toMatchObject({ paused: true, pending: [{ text: "survivor" }] });
    } finally {
      t.scripted.failBuilds = null;
    }
    const resumed = await t.api.put(`/chat/conversations/${id}/pending`, { pending: (await pending(id)).pending });
    expect(resumed.body.pending).toEqual([]);
    await sub.waitForCount((e) => e.type === "turn_done", 2);
    expect((await userTexts(id)).at(-1)).toBe("survivor");
    sub.close();
  });
});

describe("stopping and deleting", () => {
  acceptance("008-agent-chat", "stop a running turn", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ text: "so far " }, { text: "so good" }, { hang: true }));
    await sub.waitForCount((e) => e.type === "text_delta", 2);
    const stop = await t.api.post(`/chat/conversations/${id}/interrupt`);
    expect(stop.status).toBe(204);
    // By the time the 204 arrives the partial reply is persisted.
    const [, assistant] = (await t.api.get(`/chat/conversations/${id}/messages`)).body.messages;
    expect(assistant).toMatchObject({ status: "complete", stop_reason: "interrupted", error: null, content: [{ type: "text", text: "so far so good" }] });
    expect(sub.events.filter((e) => e.event.type === "turn_done").map((e) => e.event)).toEqual([
      expect.objectContaining({ stop_reason: "interrupted" }),
    ]);
    // The conversation accepts the next turn at once.
    expect((await send(id, "next")).body).toEqual({ queued: false });
    await sub.waitForCount((e) => e.type === "turn_done", 2);
    sub.close();
  });

  test("interrupting an idle conversation is a harmless no-op; an unknown one is 404", async () => {
    const id = await t.conversation();
    expect((await t.api.post(`/chat/conversations/${id}/interrupt`)).status).toBe(204);
    expect((await pending(id)).paused).toBe(false);
    expect((await t.api.post(`/chat/conversations/nope/interrupt`)).status).toBe(404);
  });

  test("deleting a conversation mid-turn discards the turn: no rows, no more events, streams closed", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ text: "doomed" }, { hang: true }));
    await sub.waitFor((e) => e.type === "text_delta");
    await send(id, "queued too");
    expect((await t.api.delete(`/chat/conversations/${id}`)).status).toBe(204);
    await sub.waitForEnd();
    const tail = sub.types().slice(-1);
    expect(tail).toEqual(["conversation_deleted"]);
    expect(sub.types()).not.toContain("turn_done");
    expect(sub.types()).not.toContain("turn_error");
    const d = new Database(join(t.home, "coffer.db"), { readonly: true });
    for (const table of ["messages", "pending_messages"]) {
      expect((d.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE conversation_id = ?`).get(id) as any).n).toBe(0);
    }
    d.close();
    expect(t.daemon.turns.lifecycle.isRunning(id)).toBe(false);
  });
});
