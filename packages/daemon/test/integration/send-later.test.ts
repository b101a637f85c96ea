/**
 * Send later (issue 27) on a real daemon, real SQLite and real HTTP, with the clock moved by hand
 * (ManualAlarmClock): a message at a time (across a restart), at the plan limit's reset (following
 * a moved reset), and edited, reordered and cancelled in the queue. No test waits in real time.
 */
import { afterEach, describe, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { ManualAlarmClock } from "../support/manual-alarm-clock.js";
import { script } from "../support/scripted-agent.js";
import { makeHome, startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const SPEC = "027-schedules";
// Monday 7 December 2026, 06:00 in Berlin (05:00 UTC).
const SIX = Date.parse("2026-12-07T05:00:00.000Z");
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

const open: TestDaemon[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

async function daemonAt(clock: ManualAlarmClock, home?: string): Promise<TestDaemon> {
  const t = await startTestDaemon({ clock, alarms: clock, timeZone: "Europe/Berlin", ...(home ? { home } : {}) });
  open.push(t);
  return t;
}

const userTexts = async (t: TestDaemon, id: string) =>
  ((await t.api.get(`/chat/conversations/${id}/messages`)).body.messages as any[]).filter((m) => m.role === "user").map((m) => m.content[0].text);
const audited = async (t: TestDaemon, action: string) => ((await t.api.get(`/audit?action=${action}`)).body.entries as any[]).map((e) => e.details);
const pendingOf = async (t: TestDaemon, id: string) => (await t.api.get(`/chat/conversations/${id}/pending`)).body;
const turnOrder = (sub: { events: { event: { type: string } }[] }) => sub.events.map((e) => e.event.type).filter((type) => type === "turn_start" || type === "turn_done");

describe("send later", () => {
  acceptance(SPEC, "a message carrying a time joins the conversation's queue when due, in order behind a running turn, never overlapping", async () => {
    const home = await makeHome();
    const clock = new ManualAlarmClock(SIX);
    const first = await daemonAt(clock, home);
    const id = await first.conversation();
    const sent = await first.api.post(`/chat/conversations/${id}/messages`, { text: "good morning", send_at: iso(SIX + 60 * MIN) });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ queued: true, later: { send_at: iso(SIX + 60 * MIN), when: "at", due: false } });
    const early = await first.api.post(`/chat/conversations/${id}/messages`, { text: "before the restart", send_at: iso(SIX + 10 * MIN) });
    expect(early.status).toBe(202);
    expect((await audited(first, "chat_later_scheduled")).map((d) => d.pending_id).sort()).toEqual([sent.body.pending_id, early.body.pending_id].sort());
    await first.stop();
    open.pop();

    // The daemon was down past the first time: on start that one is sent once, and its mark says so.
    const later = new ManualAlarmClock(SIX + 20 * MIN);
    const t = await daemonAt(later, home);
    // It starts while the daemon starts, before anyone could watch: the thread says when it is done.
    await expect.poll(async () => (await t.api.get(`/chat/conversations/${id}/messages`)).body.messages.map((m: any) => m.status)).toEqual(["complete", "complete"]);
    expect(await userTexts(t, id)).toEqual(["before the restart"]);
    const sub = await t.subscribe(id);
    expect((await audited(t, "chat_later_due"))[0]).toMatchObject({ pending_id: early.body.pending_id, missed: true });
    const queue = await pendingOf(t, id);
    // Not paused: a queue of timed messages is the owner's standing word, not interrupted work.
    expect(queue.paused).toBe(false);
    expect(queue.pending).toEqual([{ id: sent.body.pending_id, text: "good morning", later: { send_at: iso(SIX + 60 * MIN), when: "at", due: false } }]);

    // A turn is running at 07:00: the message is due but waits behind it, then runs, never overlapping.
    await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "busy " }, { gate: "busy" }) });
    await sub.waitFor((e) => e.type === "turn_start");
    later.advanceTo(SIX + 60 * MIN - 1);
    expect((await pendingOf(t, id)).pending[0].later.due).toBe(false);
    later.advanceTo(SIX + 60 * MIN);
    await sub.waitFor((e) => e.type === "queue_changed" && e.pending[0]?.later?.due === true);
    expect(turnOrder(sub)).toEqual(["turn_start"]);
    t.scripted.gates.open("busy");
    await sub.waitForCount((e) => e.type === "turn_done", 2);
    expect(turnOrder(sub)).toEqual(["turn_start", "turn_done", "turn_start", "turn_done"]);
    expect((await userTexts(t, id)).at(-1)).toBe("good morning");
    expect((await pendingOf(t, id)).pending).toEqual([]);
    expect(later.pending).toBe(0);
    sub.close();
  });

  test("a time in the past or more than 30 days ahead is refused with the field named; later cannot steer", async () => {
    const clock = new ManualAlarmClock(SIX);
    const t = await daemonAt(clock);
    const id = await t.conversation();
    const past = await t.api.post(`/chat/conversations/${id}/messages`, { text: "x", send_at: iso(SIX - MIN) });
    expect(past.status).toBe(422);
    expect(past.body.error).toMatchObject({ code: "SEND_AT_PAST", details: { field: "send_at" } });
    const far = await t.api.post(`/chat/conversations/${id}/messages`, { text: "x", send_at: iso(SIX + 31 * 86_400_000) });
    expect(far.status).toBe(422);
    expect(far.body.error).toMatchObject({ code: "SEND_AT_TOO_FAR", details: { field: "send_at" } });
    const steer = await t.api.post(`/chat/conversations/${id}/messages`, { text: "x", send_at: iso(SIX + MIN), delivery: "steer" });
    expect(steer.status).toBe(422);
    expect(steer.body.error.code).toBe("VALIDATION_FAILED");
    expect((await pendingOf(t, id)).pending).toEqual([]);
  });

  acceptance(SPEC, "a message sent \"when the limit resets\" is due at the agent's current plan-limit window's reset", async () => {
    const clock = new ManualAlarmClock(SIX);
    const t = await daemonAt(clock);
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    // No limit reached: "at the reset" means as soon as the agent can take it, which is now.
    const now = await t.api.post(`/chat/conversations/${id}/messages`, { text: "no limit yet", send_when: "limit_reset" });
    expect(now.body).toEqual({ queued: false });
    await sub.waitFor((e) => e.type === "turn_done");

    // The agent reports its five-hour window full until 07:40 (the scripted agent stamps resets from the real clock).
    const limited = (resetAt: number) => script({ limits: { status: "rejected", window: "five_hour", used: 100, resetsInMs: resetAt - Date.now() } }, { text: "limited" });
    await t.api.post(`/chat/conversations/${id}/messages`, { text: limited(SIX + 100 * MIN) });
    await sub.waitForCount((e) => e.type === "turn_done", 2);
    const reset = async () => Date.parse((await t.api.get("/chat/agents")).body.agents.find((a: any) => a.agent_key === "scripted").limits.windows[0].resets_at);
    const first = await reset();
    const sent = await t.api.post(`/chat/conversations/${id}/messages`, { text: "after the reset", send_when: "limit_reset" });
    expect(sent.body).toMatchObject({ queued: true, later: { send_at: iso(first), when: "limit_reset", due: false } });

    // A later report moves the reset to 08:10: the message follows it (and a typed message is not held up by it).
    await t.api.post(`/chat/conversations/${id}/messages`, { text: limited(SIX + 130 * MIN) });
    await sub.waitForCount((e) => e.type === "turn_done", 3);
    const moved = await reset();
    expect(moved).toBeGreaterThan(first);
    expect((await pendingOf(t, id)).pending[0].later).toEqual({ send_at: iso(moved), when: "limit_reset", due: false });
    expect((await audited(t, "chat_later_changed"))[0]).toMatchObject({ pending_id: sent.body.pending_id, send_at: iso(moved), by: "limit_reset_moved" });
    clock.advanceTo(first);
    expect((await userTexts(t, id)).includes("after the reset")).toBe(false);
    clock.advanceTo(moved);
    await sub.waitForCount((e) => e.type === "turn_done", 4);
    expect((await userTexts(t, id)).at(-1)).toBe("after the reset");
    sub.close();
  });

  acceptance(SPEC, "a scheduled item shows its time in the queue and can be edited and cancelled like any queued item, and survives a restart", async () => {
    const home = await makeHome();
    const clock = new ManualAlarmClock(SIX);
    const t = await daemonAt(clock, home);
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    const send = (body: Record<string, unknown>) => t.api.post(`/chat/conversations/${id}/messages`, body);
    await send({ text: script({ text: "busy " }, { gate: "one" }) });
    await sub.waitFor((e) => e.type === "turn_start");
    const a = (await send({ text: "at seven", send_at: iso(SIX + 60 * MIN) })).body.pending_id;
    const b = (await send({ text: "at eight", send_at: iso(SIX + 120 * MIN) })).body.pending_id;
    await send({ text: "typed after them" });
    const shown = await sub.waitFor((e) => e.type === "queue_changed" && e.pending.length === 3);
    expect((shown.event as any).pending.map((p: any) => p.later?.send_at ?? null)).toEqual([iso(SIX + 60 * MIN), iso(SIX + 120 * MIN), null]);

    // The typed message behind the timed ones is not blocked by them.
    t.scripted.gates.open("one");
    await sub.waitForCount((e) => e.type === "turn_done", 2);
    expect(await userTexts(t, id)).toEqual([expect.any(String), "typed after them"]);
    expect((await pendingOf(t, id)).pending.map((p: any) => p.id)).toEqual([a, b]);

    // Edit: new text and time for one, the other cancelled (left out), the order swapped with a new timed item.
    const edit = await t.api.put(`/chat/conversations/${id}/pending`, { pending: [{ text: "a new one", send_at: iso(SIX + 90 * MIN) }, { id: a, text: "at half past seven", send_at: iso(SIX + 30 * MIN) }] });
    expect(edit.status).toBe(200);
    expect(edit.body.pending.map((p: any) => [p.text, p.later.send_at])).toEqual([
      ["a new one", iso(SIX + 90 * MIN)],
      ["at half past seven", iso(SIX + 30 * MIN)],
    ]);
    expect((await audited(t, "chat_later_cancelled")).map((d) => d.pending_id)).toEqual([b]);
    expect((await audited(t, "chat_later_changed"))[0]).toMatchObject({ pending_id: a, send_at: iso(SIX + 30 * MIN) });
    const refused = await t.api.put(`/chat/conversations/${id}/pending`, { pending: [{ id: a, send_at: iso(SIX - MIN) }] });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "SEND_AT_PAST", details: { field: "pending[0].send_at" } });

    // Across a restart the queue keeps both with their times.
    await t.stop();
    open.pop();
    const again = await daemonAt(clock, home);
    const kept = await pendingOf(again, id);
    expect(kept.paused).toBe(false);
    expect(kept.pending.map((p: any) => [p.text, p.later.send_at])).toEqual([
      ["a new one", iso(SIX + 90 * MIN)],
      ["at half past seven", iso(SIX + 30 * MIN)],
    ]);
    const sub2 = await again.subscribe(id);
    // 06:30: the second item is due first and runs, though it stands second.
    clock.advanceTo(SIX + 30 * MIN);
    await sub2.waitFor((e) => e.type === "turn_done");
    expect((await userTexts(again, id)).at(-1)).toBe("at half past seven");
    // The time cleared: it runs now, in order (send now does the same).
    const left = (await pendingOf(again, id)).pending[0];
    const cleared = await again.api.put(`/chat/conversations/${id}/pending`, { pending: [{ id: left.id, send_at: null }] });
    expect(cleared.status).toBe(200);
    await sub2.waitForCount((e) => e.type === "turn_done", 2);
    expect((await userTexts(again, id)).at(-1)).toBe("a new one");
    expect(clock.pending).toBe(0);
    sub.close();
    sub2.close();
  });
});
