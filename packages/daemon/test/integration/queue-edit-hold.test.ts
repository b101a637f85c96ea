/**
 * Issue 22 B: editing a queued message holds the queue in front of it. A real daemon over HTTP,
 * the scripted agent holding its turn open on a gate until the test opens it.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { script } from "../support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";
import type { SseSubscription } from "../support/http-client.js";

const SCENARIO = "while any surface edits a queued message the queue stops in front of it, saving keeps its place, and the hold lapses when the editor goes away";
/** Short enough to lapse within a test, long enough that the test's own steps never outlast it. */
const SHORT_LEASE_MS = 400;

let t: TestDaemon;
let short: TestDaemon;
beforeAll(async () => {
  [t, short] = await Promise.all([startTestDaemon(), startTestDaemon({ editLeaseMs: SHORT_LEASE_MS })]);
});
afterAll(async () => {
  await Promise.all([t.close(), short.close()]);
});

const userTexts = async (d: TestDaemon, id: string) =>
  (await d.api.get(`/chat/conversations/${id}/messages`)).body.messages.filter((m: any) => m.role === "user").map((m: any) => m.content[0].text);

/** A running turn (held open on `gate`) with `texts` queued behind it. */
async function queuedBehindTurn(d: TestDaemon, gate: string, texts: string[]) {
  const id = await d.conversation();
  const sub = await d.subscribe(id);
  await d.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "working" }, { gate }) });
  await sub.waitFor((e) => e.type === "turn_start");
  const ids: string[] = [];
  for (const text of texts) ids.push((await d.api.post(`/chat/conversations/${id}/messages`, { text })).body.pending_id);
  return { id, sub, ids };
}

/**
 * Opens the gate, then waits until the turn has ended and the engine has decided what runs next:
 * the list stream's running: false comes from the same step that starts the queue's head, so
 * a head that started would already show as running.
 */
async function endTurn(d: TestDaemon, id: string, sub: SseSubscription, gate: string, ends: number) {
  const list = await d.subscribeList();
  d.scripted.gates.open(gate);
  await sub.waitForCount((e) => e.type === "turn_done", ends);
  await list.waitFor((e: any) => e.type === "conversation_updated" && e.conversation.id === id && e.conversation.running === false);
  list.close();
}

describe("editing a queued message holds the queue", () => {
  acceptance("022-screens-true", SCENARIO, async () => {
    const { id, sub, ids } = await queuedBehindTurn(t, "edit-1", ["deploy prod", "tell me when done"]);
    const [x, y] = ids as [string, string];

    // The CLI (the token's surface) takes the hold: every surface sees who edits it.
    const hold = await t.api.post(`/chat/conversations/${id}/pending/${x}/hold`, {});
    expect(hold.status).toBe(200);
    expect(hold.body).toMatchObject({ hold_id: expect.any(String), lease_ms: 20_000 });
    const marked = await sub.waitFor((e) => e.type === "queue_changed" && e.pending[0]?.editing !== undefined);
    expect((marked.event as any).pending).toEqual([
      { id: x, text: "deploy prod", truncated: false, length: 11, editing: { by: "cli", since: expect.any(String) } },
      { id: y, text: "tell me when done", truncated: false, length: 17 },
    ]);
    expect((await t.api.get(`/chat/conversations/${id}/pending`)).body.pending[0].editing).toMatchObject({ by: "cli" });

    // The running turn ends while X is being edited: X does not start, nor Y behind it.
    await endTurn(t, id, sub, "edit-1", 1);
    expect((await t.api.get(`/chat/conversations/${id}`)).body.running).toBe(false);
    expect((await t.api.get(`/chat/conversations/${id}/pending`)).body.pending.map((p: any) => p.text)).toEqual(["deploy prod", "tell me when done"]);
    expect(sub.types().filter((type) => type === "turn_start")).toHaveLength(1);

    // Saving the edit (the existing PUT, with the hold) keeps its place and releases the queue.
    const saved = await t.api.put(`/chat/conversations/${id}/pending`, {
      pending: [{ id: x, text: "deploy staging" }, { id: y }],
      seen: [x, y],
      hold_id: hold.body.hold_id,
    });
    expect(saved.status).toBe(200);
    await sub.waitForCount((e) => e.type === "turn_done", 3);
    // The edited text ran once, in its place; the original never did.
    expect(await userTexts(t, id)).toEqual([script({ text: "working" }, { gate: "edit-1" }), "deploy staging", "tell me when done"]);
    // The hold ended with the save: a renewal now finds nothing to renew.
    expect((await t.api.post(`/chat/conversations/${id}/pending/${x}/hold`, { hold_id: hold.body.hold_id })).body.error.code).toBe("PENDING_NOT_FOUND");
    sub.close();
  });

  acceptance("022-screens-true", SCENARIO, async () => {
    // The editor goes away (it stops renewing): after the lease the queue runs on by itself.
    const { id, sub, ids } = await queuedBehindTurn(short, "edit-2", ["deploy prod"]);
    const hold = await short.api.post(`/chat/conversations/${id}/pending/${ids[0]}/hold`, {});
    expect(hold.body.lease_ms).toBe(SHORT_LEASE_MS);
    const heldAt = Date.now();
    short.scripted.gates.open("edit-2");
    const started = await sub.waitForCount((e) => e.type === "turn_start", 2);
    const ranAfterMs = Date.now() - heldAt;
    // The frame that lifted the hold came before X started, and X ran as it was queued.
    const ended = sub.events.findIndex((e) => e.event.type === "turn_done");
    const lifted = sub.events.findIndex((e, i) => i > ended && e.event.type === "queue_changed" && e.event.pending.length === 1 && !e.event.pending[0]!.editing);
    expect(lifted).toBeGreaterThan(ended);
    expect(lifted).toBeLessThan(sub.events.indexOf(started[1]!));
    expect((started[1]!.event as any).user_message.content[0].text).toBe("deploy prod");
    expect(ranAfterMs).toBeGreaterThanOrEqual(SHORT_LEASE_MS - 50); // timers may fire a hair early
    await sub.waitForCount((e) => e.type === "turn_done", 2);
    sub.close();
  });

  test("a second editor is refused with who holds it; renewing keeps the hold; releasing lets the queue run", async () => {
    const { id, sub, ids } = await queuedBehindTurn(t, "edit-3", ["deploy prod", "next"]);
    const [x] = ids as [string];
    const first = await t.api.post(`/chat/conversations/${id}/pending/${x}/hold`, {});
    const second = await t.api.post(`/chat/conversations/${id}/pending/${x}/hold`, {});
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: "PENDING_BEING_EDITED", details: { pending_id: x, by: "cli" } });
    expect(second.body.error.message).toMatch(/being edited from the CLI/);
    // "Send now" from another surface would lose the edit: refused the same way.
    expect((await t.api.post(`/chat/conversations/${id}/pending/${x}/steer`)).body.error.code).toBe("PENDING_BEING_EDITED");
    const renewed = await t.api.post(`/chat/conversations/${id}/pending/${x}/hold`, { hold_id: first.body.hold_id });
    expect(renewed.status).toBe(200);
    expect(renewed.body.hold_id).toBe(first.body.hold_id);
    expect(Date.parse(renewed.body.expires_at)).toBeGreaterThanOrEqual(Date.parse(first.body.expires_at));

    await endTurn(t, id, sub, "edit-3", 1);
    expect((await t.api.get(`/chat/conversations/${id}`)).body.running).toBe(false);
    // A wrong hold id releases nothing; the right one lets the queue run, in order.
    expect((await t.api.delete(`/chat/conversations/${id}/pending/${x}/hold/not-the-hold`)).status).toBe(204);
    expect((await t.api.get(`/chat/conversations/${id}/pending`)).body.pending[0].editing).toBeDefined();
    expect((await t.api.delete(`/chat/conversations/${id}/pending/${x}/hold/${first.body.hold_id}`)).status).toBe(204);
    await sub.waitForCount((e) => e.type === "turn_done", 3);
    expect((await userTexts(t, id)).slice(1)).toEqual(["deploy prod", "next"]);
    // Unknown message: 404, never a 500.
    expect((await t.api.post(`/chat/conversations/${id}/pending/gone/hold`, {})).body.error.code).toBe("PENDING_NOT_FOUND");
    sub.close();
  });

  test("an item behind the head may be edited while the head runs; the queue stops when it reaches it", async () => {
    const { id, sub, ids } = await queuedBehindTurn(t, "edit-4", [script({ text: "a" }, { gate: "edit-4b" }), "edited later"]);
    const [, later] = ids as [string, string];
    const hold = await t.api.post(`/chat/conversations/${id}/pending/${later}/hold`, {});
    t.scripted.gates.open("edit-4");
    await sub.waitForCount((e) => e.type === "turn_start", 2); // the unheld head runs
    await endTurn(t, id, sub, "edit-4b", 2);
    expect(sub.types().filter((type) => type === "turn_start")).toHaveLength(2);
    // Dropping the held message ends its hold with it.
    await t.api.put(`/chat/conversations/${id}/pending`, { pending: [], seen: [later] });
    expect((await t.api.post(`/chat/conversations/${id}/pending/${later}/hold`, { hold_id: hold.body.hold_id })).status).toBe(404);
    sub.close();
  });
});
