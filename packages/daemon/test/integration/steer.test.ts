import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { script, wallClockMs } from "../support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

const SPEC = "014-owner-in-the-loop";
const send = (id: string, text: string, delivery?: "queue" | "steer", client_id?: string) =>
  t.api.post(`/chat/conversations/${id}/messages`, { text, ...(delivery ? { delivery } : {}), ...(client_id ? { client_id } : {}) });
const pending = async (id: string) => (await t.api.get(`/chat/conversations/${id}/pending`)).body;
const thread = async (id: string) =>
  (await t.api.get(`/chat/conversations/${id}/messages`)).body.messages.map((m: any) => ({
    role: m.role,
    text: m.content.map((b: any) => b.text ?? "").join(""),
    status: m.status,
    stop_reason: m.stop_reason ?? null,
  }));
const turnsOf = (id: string) => t.scripted.turns.filter((r) => r.conversationId === id);

describe("steering a running turn", () => {
  acceptance(SPEC, "a steered message reaches the running turn once and sits between the reply's parts", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    const first = script({ text: "before " }, { await_steer: true }, { text: " after" });
    await send(id, first);
    await sub.waitFor((e) => e.type === "text_delta");
    const ack = await send(id, "use tabs, not spaces", "steer", "steer-1");
    expect(ack).toMatchObject({ status: 202, body: { queued: false, steered: true } });
    const steered = (await sub.waitFor((e) => e.type === "steered")).event as any;
    expect(steered.user_message).toMatchObject({ role: "user", content: [{ type: "text", text: "use tabs, not spaces" }] });
    await sub.waitFor((e) => e.type === "turn_done");

    // The agent read it exactly once, inside the same turn.
    expect(turnsOf(id)).toHaveLength(1);
    expect(turnsOf(id)[0]!.steered).toEqual(["use tabs, not spaces"]);
    expect(sub.types().filter((x) => x === "turn_start")).toHaveLength(1);
    // The timeline: the reply so far, the steered message, the rest of the same turn.
    expect(await thread(id)).toEqual([
      { role: "user", text: first, status: "complete", stop_reason: null },
      { role: "assistant", text: "before ", status: "complete", stop_reason: "steered" },
      { role: "user", text: "use tabs, not spaces", status: "complete", stop_reason: null },
      { role: "assistant", text: "steered: use tabs, not spaces after", status: "complete", stop_reason: "end_turn" },
    ]);
    expect(steered.previous_assistant_message_id).not.toBe(steered.assistant_message_id);
    expect((await pending(id)).pending).toEqual([]);
    // The same client_id again is a repeat, not a second message.
    expect((await send(id, "use tabs, not spaces", "steer", "steer-1")).body).toEqual({ queued: false });
    expect((await thread(id)).filter((m: any) => m.text === "use tabs, not spaces")).toHaveLength(1);
    sub.close();
  });

  acceptance(SPEC, "steering an idle conversation is a normal send", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    const ack = await send(id, "hello idle", "steer");
    expect(ack).toMatchObject({ status: 202, body: { queued: false } });
    const start = (await sub.waitFor((e) => e.type === "turn_start")).event as any;
    expect(start.user_message.content[0].text).toBe("hello idle");
    await sub.waitFor((e) => e.type === "turn_done");
    expect(sub.types()).not.toContain("steer_fallback");
    sub.close();
  });

  acceptance(SPEC, "a steer the agent cannot take goes to the head of the queue with steer_fallback", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    t.scripted.steerable = false;
    try {
      await send(id, script({ text: "busy " }, { gate: "fb1" }));
      await sub.waitFor((e) => e.type === "text_delta");
      await send(id, "queued first");
      const ack = await send(id, "steer me", "steer");
      expect(ack).toMatchObject({ status: 202, body: { queued: true } });
      const fb = (await sub.waitFor((e) => e.type === "steer_fallback")).event as any;
      expect(fb).toMatchObject({ text: "steer me", reason: "not_steerable", pending_id: ack.body.pending_id });
      // Head of the queue, ahead of what was queued before it.
      expect((await pending(id)).pending.map((p: any) => p.text)).toEqual(["steer me", "queued first"]);
    } finally {
      t.scripted.steerable = true;
    }
    t.scripted.gates.open("fb1");
    await sub.waitForCount((e) => e.type === "turn_done", 3);
    // Never lost, never twice: each ran as its own turn, once, the fallback first.
    expect(turnsOf(id).map((r) => r.text).slice(1)).toEqual(["steer me", "queued first"]);
    expect(turnsOf(id).flatMap((r) => r.steered)).toEqual([]);
    sub.close();
  });

  test("a steer that fails in the agent falls back to the queue's head too", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    t.scripted.failSteers = "pipe closed";
    try {
      await send(id, script({ text: "busy " }, { gate: "fb2" }));
      await sub.waitFor((e) => e.type === "text_delta");
      await send(id, "steer fails", "steer");
      expect((await sub.waitFor((e) => e.type === "steer_fallback")).event).toMatchObject({ reason: "steer_failed", text: "steer fails" });
    } finally {
      t.scripted.failSteers = null;
    }
    t.scripted.gates.open("fb2");
    await sub.waitForCount((e) => e.type === "turn_done", 2);
    expect(turnsOf(id).map((r) => r.text)).toEqual([script({ text: "busy " }, { gate: "fb2" }), "steer fails"]);

    sub.close();
  });

  test("send now racing the turn's end: the queue does not start the row being steered; refused, it runs once from the head", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ text: "ending " }, { gate: "race-turn" }));
    await sub.waitFor((e) => e.type === "text_delta");
    const row = await send(id, "raced");
    t.scripted.holdSteers = "race-steer";
    try {
      const now = t.api.post(`/chat/conversations/${id}/pending/${row.body.pending_id}/steer`);
      // The steer is in flight; the turn ends meanwhile.
      await t.scripted.gates.opened("asked:race-steer");
      t.scripted.gates.open("race-turn");
      await sub.waitFor((e) => e.type === "turn_done");
      expect(sub.types().filter((x) => x === "turn_start")).toHaveLength(1);
      expect((await pending(id)).pending.map((p: any) => p.text)).toEqual(["raced"]);
      t.scripted.gates.open("race-steer");
      expect((await now).body).toEqual({ queued: true, pending_id: row.body.pending_id });
    } finally {
      t.scripted.holdSteers = null;
    }
    expect((await sub.waitFor((e) => e.type === "steer_fallback")).event).toMatchObject({ reason: "turn_ended", pending_id: row.body.pending_id });
    await sub.waitForCount((e) => e.type === "turn_done", 2);
    expect(turnsOf(id).map((r) => r.text)).toEqual([script({ text: "ending " }, { gate: "race-turn" }), "raced"]);
    expect((await pending(id)).pending).toEqual([]);
    sub.close();
  });

  acceptance(SPEC, "send now steers a queued message into the running turn, or runs it when idle", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ text: "working " }, { await_steer: true }, { gate: "sn1" }));
    await sub.waitFor((e) => e.type === "text_delta");
    const a = await send(id, "queued a");
    const b = await send(id, "queued b");
    const now = await t.api.post(`/chat/conversations/${id}/pending/${b.body.pending_id}/steer`);
    expect(now).toMatchObject({ status: 202, body: { queued: false, steered: true } });
    await sub.waitFor((e) => e.type === "steered");
    expect((await pending(id)).pending.map((p: any) => p.id)).toEqual([a.body.pending_id]);
    // A row that is no longer queued cannot be sent again.
    const gone = await t.api.post(`/chat/conversations/${id}/pending/${b.body.pending_id}/steer`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe("PENDING_NOT_FOUND");
    t.scripted.gates.open("sn1");
    await sub.waitForCount((e) => e.type === "turn_done", 2);
    expect(turnsOf(id)[0]!.steered).toEqual(["queued b"]);
    expect(turnsOf(id).map((r) => r.text).slice(1)).toEqual(["queued a"]);

    // Idle with a held queue: "Send now" runs that row at once, ahead of the rest.
    await send(id, script({ text: "held " }, { hang: true }));
    await sub.waitForCount((e) => e.type === "turn_start", 3);
    await send(id, "held c");
    const d = await send(id, "held d");
    await t.api.post(`/chat/conversations/${id}/interrupt`);
    expect((await pending(id)).paused).toBe(true);
    const run = await t.api.post(`/chat/conversations/${id}/pending/${d.body.pending_id}/steer`);
    expect(run).toMatchObject({ status: 202, body: { queued: false } });
    await sub.waitForCount((e) => e.type === "turn_done", 5);
    expect(turnsOf(id).map((r) => r.text).slice(3)).toEqual(["held d", "held c"]);
    sub.close();
  });

  test("bench: steer → the text is in the agent's next read, p50 (scripted agent)", async () => {
    const N = 40;
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await send(id, script({ text: "go " }, ...Array.from({ length: N }, () => ({ await_steer: true as const }))));
    await sub.waitFor((e) => e.type === "text_delta");
    const latencies: number[] = [];
    for (let i = 0; i < N; i++) {
      const sent = wallClockMs();
      const ack = await send(id, `steer ${i}`, "steer");
      expect(ack.body.steered).toBe(true);
      await sub.waitFor((e) => e.type === "text_delta" && e.text === `steered: steer ${i}`);
      latencies.push(turnsOf(id)[0]!.steerReadAt[i]! - sent);
    }
    await sub.waitFor((e) => e.type === "turn_done");
    expect(turnsOf(id)[0]!.steered).toEqual(Array.from({ length: N }, (_, i) => `steer ${i}`));
    latencies.sort((x, y) => x - y);
    const p50 = latencies[Math.floor(N / 2)]!;
    const p95 = latencies[Math.floor(N * 0.95)]!;
    console.log(`[bench] steer → next read (scripted, ${N} steers over HTTP): p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms`);
    expect(p50).toBeGreaterThan(0);
    sub.close();
  });
});
