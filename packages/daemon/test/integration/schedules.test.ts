/**
 * Recurring prompts (issue 27) on a real daemon, real SQLite and real HTTP, with the clock moved
 * by hand (ManualAlarmClock): no test waits in real time. The scripted agent runs the turns; the
 * real `claude` CLI runs one in schedules-claude.test.ts.
 */
import { afterEach, describe, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { ManualAlarmClock } from "../support/manual-alarm-clock.js";
import { script } from "../support/scripted-agent.js";
import { makeHome, startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const SPEC = "027-schedules";
// Monday 7 December 2026, 06:00 in Berlin (05:00 UTC; CET is UTC+1 in December).
const MONDAY_0600_BERLIN = Date.parse("2026-12-07T05:00:00.000Z");
const SEVEN_BERLIN = (day: number) => new Date(Date.parse("2026-12-07T06:00:00.000Z") + day * 86_400_000).toISOString();
const ZONE = "Europe/Berlin";

const open: TestDaemon[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

async function daemonAt(clock: ManualAlarmClock, home?: string): Promise<TestDaemon> {
  const t = await startTestDaemon({ clock, alarms: clock, timeZone: ZONE, ...(home ? { home } : {}) });
  open.push(t);
  return t;
}

const userMessages = async (t: TestDaemon, id: string) => (await t.api.get(`/chat/conversations/${id}/messages`)).body.messages.filter((m: any) => m.role === "user");
const audited = async (t: TestDaemon, action: string) => (await t.api.get(`/audit?action=${action}`)).body.entries as any[];

async function daily(t: TestDaemon, conversationId: string, extra: Record<string, unknown> = {}) {
  const res = await t.api.post("/schedules", { name: "morning triage", prompt: "triage the failing tests", when: { preset: "daily_at", at: "07:00" }, target: { conversation_id: conversationId }, ...extra });
  expect(res.status).toBe(201);
  return res.body;
}

/** A daemon at Monday 06:00 Berlin, one conversation (watched) and a daily 07:00 heartbeat into it. */
async function dailyInOneConversation(extra: Record<string, unknown> = {}) {
  const clock = new ManualAlarmClock(MONDAY_0600_BERLIN);
  const t = await daemonAt(clock);
  const id = await t.conversation();
  const s = await daily(t, id, extra);
  const sub = await t.subscribe(id);
  return { clock, t, id, s, sub };
}

describe("recurring schedules", () => {
  acceptance(SPEC, "a daily schedule fires at its time in the owner's time zone across a restart", async () => {
    const home = await makeHome();
    const clock = new ManualAlarmClock(MONDAY_0600_BERLIN);
    const first = await daemonAt(clock, home);
    const id = await first.conversation();
    const s = await daily(first, id);
    // 07:00 in Berlin, not 07:00 UTC.
    expect(s).toMatchObject({ paused: false, time_zone: ZONE, next_run_at: SEVEN_BERLIN(0), last_run: null, when: { preset: "daily_at", at: "07:00" } });
    await first.stop();
    open.pop();

    // The same data dir (the SQLite file reopened) under a new daemon: it re-arms from the store.
    const later = new ManualAlarmClock(MONDAY_0600_BERLIN + 30 * 60_000);
    const t = await daemonAt(later, home);
    expect((await t.api.get(`/schedules/${s.id}`)).body.next_run_at).toBe(SEVEN_BERLIN(0));
    const sub = await t.subscribe(id);
    later.advanceTo(Date.parse(SEVEN_BERLIN(0)) - 1);
    expect(sub.events.filter((e) => e.event.type === "turn_start")).toEqual([]);
    later.advanceTo(Date.parse(SEVEN_BERLIN(0)));
    const start = await sub.waitFor((e) => e.type === "turn_start");
    // The message carries the schedule's mark (the page's clock, the CLI's ⏰), as stored.
    expect((start.event as any).user_message).toMatchObject({ content: [{ type: "text", text: "triage the failing tests" }], schedule: { id: s.id, name: "morning triage" } });
    await sub.waitFor((e) => e.type === "turn_done");
    const [message] = await userMessages(t, id);
    expect(message.schedule).toEqual({ id: s.id, name: "morning triage" });
    const after = (await t.api.get(`/schedules/${s.id}`)).body;
    expect(after.next_run_at).toBe(SEVEN_BERLIN(1));
    expect(after.last_run).toEqual({ at: SEVEN_BERLIN(0), conversation_id: id, status: "sent" });
    sub.close();
  });

  acceptance(SPEC, "missed runs while the machine slept run once on wake, not N times, and say so", async () => {
    const { clock, t, id, s, sub } = await dailyInOneConversation();
    // Asleep from Monday 06:00 to Wednesday 07:30: Monday's, Tuesday's and Wednesday's 07:00 missed.
    clock.wakeAt(Date.parse(SEVEN_BERLIN(2)) + 30 * 60_000);
    await sub.waitFor((e) => e.type === "turn_done");
    expect(await userMessages(t, id)).toHaveLength(1);
    const after = (await t.api.get(`/schedules/${s.id}`)).body;
    expect(after.last_run).toMatchObject({ status: "sent", caught_up: 3, message: "missed 3 runs while the machine slept; ran once" });
    expect(after.next_run_at).toBe(SEVEN_BERLIN(3));
    const rows = await audited(t, "schedule_run");
    expect(rows).toHaveLength(1);
    expect(rows[0].details).toMatchObject({ schedule_id: s.id, missed: 3, note: "missed 3 runs while the machine slept; ran once", conversation_id: id, status: "sent" });
    // Only the next due time is armed: nothing else is waiting to fire.
    expect(clock.pending).toBe(1);
    sub.close();
  });

  acceptance(SPEC, "a paused schedule does not run", async () => {
    const clock = new ManualAlarmClock(MONDAY_0600_BERLIN);
    const t = await daemonAt(clock);
    const quiet = await t.conversation();
    const busy = await t.conversation();
    const paused = await daily(t, quiet, { paused: true });
    expect(paused).toMatchObject({ paused: true, next_run_at: null });
    // Paused after creation, too: its alarm is dropped.
    const later = await daily(t, quiet, { name: "later paused" });
    expect((await t.api.patch(`/schedules/${later.id}`, { paused: true })).body).toMatchObject({ paused: true, next_run_at: null });
    // A live one at the same time is the signal that the moment came and went.
    await daily(t, busy, { name: "live" });
    expect(clock.pending).toBe(1);
    const sub = await t.subscribe(busy);
    clock.advanceTo(Date.parse(SEVEN_BERLIN(1)));
    await sub.waitForCount((e) => e.type === "turn_done", 2);
    expect(await userMessages(t, quiet)).toEqual([]);
    expect((await t.api.get(`/schedules/${paused.id}`)).body.last_run).toBeNull();
    expect((await t.api.get(`/schedules/${later.id}`)).body.last_run).toBeNull();
    // Resumed, it counts from now: it does not catch up on its pause.
    const resumed = (await t.api.patch(`/schedules/${paused.id}`, { paused: false })).body;
    expect(resumed).toMatchObject({ paused: false, next_run_at: SEVEN_BERLIN(2), last_run: null });
    sub.close();
  });

  acceptance(SPEC, "a heartbeat into a busy conversation queues and never overlaps", async () => {
    const { clock, t, id, s, sub } = await dailyInOneConversation({ prompt: "heartbeat: anything new?" });
    const running = script({ text: "working " }, { gate: "busy" });
    await t.api.post(`/chat/conversations/${id}/messages`, { text: running });
    await sub.waitFor((e) => e.type === "text_delta");
    clock.advanceTo(Date.parse(SEVEN_BERLIN(0)));
    // It joins the queue behind the running turn, marked.
    const queued = await sub.waitFor((e) => e.type === "queue_changed" && e.pending.length === 1);
    expect((queued.event as any).pending[0]).toMatchObject({ text: "heartbeat: anything new?", schedule: { id: s.id, name: "morning triage" } });
    expect((await t.api.get(`/chat/conversations/${id}/pending`)).body.pending[0].schedule).toEqual({ id: s.id, name: "morning triage" });
    expect((await t.api.get(`/schedules/${s.id}`)).body.last_run).toMatchObject({ status: "queued", conversation_id: id });
    t.scripted.gates.open("busy");
    await sub.waitForCount((e) => e.type === "turn_done", 2);
    // One turn at a time: start, end, start, end.
    const order = sub.events.map((e) => e.event.type).filter((type) => type === "turn_start" || type === "turn_done");
    expect(order).toEqual(["turn_start", "turn_done", "turn_start", "turn_done"]);
    const users = await userMessages(t, id);
    expect(users.map((m: any) => m.content[0].text)).toEqual([running, "heartbeat: anything new?"]);
    expect(users[0].schedule).toBeUndefined();
    expect(users[1].schedule).toEqual({ id: s.id, name: "morning triage" });
    sub.close();
  });

  acceptance(SPEC, "a schedule that opens a fresh conversation each run uses its agent, folder and model", async () => {
    const clock = new ManualAlarmClock(MONDAY_0600_BERLIN);
    const t = await daemonAt(clock);
    const prompt = script({ text: "fresh run" }, { gate: "fresh" });
    const created = await t.api.post("/schedules", { name: "nightly", prompt, when: { cron: "30 2 * * *" }, target: { fresh: { agent: "scripted", cwd: t.workspace, model: "scripted-night" } } });
    expect(created.status).toBe(201);
    // 02:30 Berlin on Tuesday = 01:30 UTC.
    expect(created.body.next_run_at).toBe("2026-12-08T01:30:00.000Z");
    const list = await t.subscribeList();
    clock.advanceTo(Date.parse("2026-12-08T01:30:00.000Z"));
    const made = await list.waitFor((e) => (e as { type: string }).type === "conversation_created");
    const conv = (made.event as any).conversation;
    expect(conv).toMatchObject({ agent_key: "scripted", title: "nightly" });
    const sub = await t.subscribe(conv.id);
    t.scripted.gates.open("fresh");
    await sub.waitFor((e) => e.type === "turn_done");
    expect((await t.api.get(`/chat/conversations/${conv.id}`)).body.agent_model).toBe("scripted-night");
    expect(t.scripted.turns.at(-1)).toMatchObject({ conversationId: conv.id, model: "scripted-night", text: prompt });
    expect((await userMessages(t, conv.id))[0].schedule).toEqual({ id: created.body.id, name: "nightly" });
    // The next night opens another one.
    clock.advanceTo(Date.parse("2026-12-09T01:30:00.000Z"));
    const second = await list.waitForCount((e) => (e as { type: string }).type === "conversation_created", 2);
    expect((second[1]!.event as any).conversation.id).not.toBe(conv.id);
    t.scripted.gates.open("fresh");
    list.close();
    sub.close();
  });

  acceptance(SPEC, "each run is audited and shows in history with a clock mark", async () => {
    const { clock, t, id, s, sub } = await dailyInOneConversation();
    // Run now: the same path, audited as a run; the timetable is unchanged.
    const now = await t.api.post(`/schedules/${s.id}/run-now`);
    expect(now).toMatchObject({ status: 200, body: { conversation_id: id, queued: false } });
    await sub.waitFor((e) => e.type === "turn_done");
    clock.advanceTo(Date.parse(SEVEN_BERLIN(0)));
    await sub.waitForCount((e) => e.type === "turn_done", 2);
    const list = await audited(t, "schedule_run");
    expect(list.map((r: any) => r.details.trigger).sort()).toEqual(["now", "timetable"]);
    for (const r of list) expect(r.details).toMatchObject({ schedule_id: s.id, name: "morning triage", conversation_id: id, status: "sent" });
    const marks = (await userMessages(t, id)).map((m: any) => m.schedule);
    expect(marks).toEqual([{ id: s.id, name: "morning triage" }, { id: s.id, name: "morning triage" }]);
    expect((await audited(t, "schedule_created"))[0].details).toMatchObject({ schedule_id: s.id });
    expect((await t.api.delete(`/schedules/${s.id}`)).status).toBe(204);
    expect((await audited(t, "schedule_deleted"))[0].details).toMatchObject({ schedule_id: s.id });
    // Gone: its alarm too, and its past messages keep their mark.
    expect(clock.pending).toBe(0);
    expect((await userMessages(t, id))[1].schedule).toEqual({ id: s.id, name: "morning triage" });
    sub.close();
  });

  acceptance(SPEC, "a run that would hit a known plan limit waits for the reset and says so", async () => {
    const { clock, t, id, s, sub } = await dailyInOneConversation();
    // The agent reports its five-hour window full, resetting at 07:40 Berlin (after the 07:00 run).
    // The scripted agent stamps resets from the real clock, so the distance is taken from it.
    const resetWanted = Date.parse(SEVEN_BERLIN(0)) + 40 * 60_000;
    await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ limits: { status: "rejected", window: "five_hour", used: 100, resetsInMs: resetWanted - Date.now() } }, { text: "limited" }) });
    await sub.waitFor((e) => e.type === "turn_done");
    const agents = (await t.api.get("/chat/agents")).body.agents;
    const reset = Date.parse(agents.find((a: any) => a.agent_key === "scripted").limits.windows[0].resets_at);
    clock.advanceTo(Date.parse(SEVEN_BERLIN(0)));
    // Nothing is sent at 07:00: the run waits, and says until when.
    const waiting = (await t.api.get(`/schedules/${s.id}`)).body;
    expect(waiting.last_run).toMatchObject({ status: "waiting", conversation_id: id, message: `scripted's plan limit is reached; waiting for its reset at ${new Date(reset).toISOString()}` });
    expect(waiting.next_run_at).toBe(SEVEN_BERLIN(1));
    expect(await userMessages(t, id)).toHaveLength(1);
    clock.advanceTo(reset);
    await sub.waitForCount((e) => e.type === "turn_done", 2);
    const users = await userMessages(t, id);
    expect(users.map((m: any) => m.content[0].text).at(-1)).toBe("triage the failing tests");
    const after = (await t.api.get(`/schedules/${s.id}`)).body.last_run;
    expect(after).toMatchObject({ status: "sent", message: "waited for the plan limit's reset" });
    const rows = (await audited(t, "schedule_run")).map((r: any) => r.details);
    expect(rows.map((d: any) => d.status).sort()).toEqual(["sent", "waiting"]);
    expect(rows.find((d: any) => d.status === "sent")).toMatchObject({ waited_until: new Date(reset).toISOString() });
    sub.close();
  });

  test("a schedule that cannot run is refused with the field to fix; an unknown one is 404", async () => {
    const clock = new ManualAlarmClock(MONDAY_0600_BERLIN);
    const t = await daemonAt(clock);
    const id = await t.conversation();
    const base = { name: "x", prompt: "p", when: { preset: "hourly" }, target: { conversation_id: id } };
    const refused = async (body: unknown, field: string) => {
      const res = await t.api.post("/schedules", body);
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: "SCHEDULE_INVALID", details: { field } });
    };
    await refused({ ...base, when: { cron: "61 * * * *" } }, "when");
    await refused({ ...base, target: { conversation_id: "nope" } }, "target.conversation_id");
    await refused({ ...base, target: { fresh: { agent: "nobody", cwd: t.workspace } } }, "target.fresh.agent");
    // The wire shape itself: a preset without its time.
    expect((await t.api.post("/schedules", { ...base, when: { preset: "daily_at" } })).status).toBe(422);
    expect((await t.api.get("/schedules")).body.schedules).toEqual([]);
    for (const res of [await t.api.get("/schedules/missing"), await t.api.patch("/schedules/missing", { paused: true }), await t.api.delete("/schedules/missing"), await t.api.post("/schedules/missing/run-now")]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("SCHEDULE_NOT_FOUND");
    }
    // Hourly: the top of the next hour; weekdays: Monday to Friday.
    const hourly = (await t.api.post("/schedules", base)).body;
    expect(hourly.next_run_at).toBe("2026-12-07T06:00:00.000Z");
    expect((await t.api.delete(`/schedules/${hourly.id}`)).status).toBe(204);
    const friday = Date.parse("2026-12-11T08:00:00.000Z");
    clock.advanceTo(friday);
    const weekdays = (await t.api.post("/schedules", { ...base, when: { preset: "weekdays_at", at: "08:15" } })).body;
    // Friday 09:00 Berlin now: the next weekday 08:15 is Monday.
    expect(weekdays.next_run_at).toBe("2026-12-14T07:15:00.000Z");
  });
});
