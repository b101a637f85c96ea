/**
 * A scheduled turn with the REAL `claude` CLI against the fake Anthropic server on 127.0.0.1,
 * the clock moved by hand: the heartbeat fires while a turn is held open at the fake server,
 * waits in the queue, and runs as its own turn once that one ends.
 */
import { isTerminalEvent } from "@coffer/protocol";
import { afterAll, beforeAll, expect } from "vitest";
import { startAgentHarness, textOf, type AgentHarness } from "../fakes/agent-harness.js";
import { acceptance } from "../support/acceptance.js";
import { ManualAlarmClock } from "../support/manual-alarm-clock.js";

// Monday 7 December 2026, 06:00 in Berlin; the schedule's 07:00 there is 06:00 UTC.
const START = Date.parse("2026-12-07T05:00:00.000Z");
const DUE = Date.parse("2026-12-07T06:00:00.000Z");
const clock = new ManualAlarmClock(START);

let h: AgentHarness<"claude_code">;
beforeAll(async () => {
  h = await startAgentHarness("claude_code", { daemon: { clock, alarms: clock, timeZone: "Europe/Berlin" } });
}, 30_000);
afterAll(() => h?.close(), 30_000);

const TURN = 60_000;

acceptance(
  "027-schedules",
  "a scheduled turn runs with a real agent CLI",
  async () => {
    const api = h.daemon.api;
    const id = await h.conversation({ model: "claude-sonnet-4-5" });
    const sub = await h.daemon.subscribe(id);
    // A turn the fake model server holds open.
    await h.send(id, "GATE busy");
    await sub.waitFor((e) => e.type === "text_delta");
    const created = await api.post("/schedules", { name: "heartbeat", prompt: "heartbeat from the schedule", when: { preset: "daily_at", at: "07:00" }, target: { conversation_id: id } });
    expect(created.body.next_run_at).toBe(new Date(DUE).toISOString());
    clock.advanceTo(DUE);
    const queued = await sub.waitFor((e) => e.type === "queue_changed" && e.pending.length === 1);
    expect((queued.event as any).pending[0]).toMatchObject({ text: "heartbeat from the schedule", schedule: { id: created.body.id, name: "heartbeat" } });
    h.fake.open("busy");
    await sub.waitForCount(isTerminalEvent, 2);
    const order = sub.events.map((e) => e.event.type).filter((t) => t === "turn_start" || t === "turn_done" || t === "turn_error");
    expect(order).toEqual(["turn_start", "turn_done", "turn_start", "turn_done"]);
    const messages = await h.messages(id);
    expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(messages[2].schedule).toEqual({ id: created.body.id, name: "heartbeat" });
    // The real CLI sent the scheduled prompt to the model and streamed its answer back.
    expect(textOf(messages[3])).toContain("Fake reply to: heartbeat from the schedule");
    expect(messages[3].status).toBe("complete");
    expect(h.auditRows("schedule_run")).toEqual([{ actor: "user", details: expect.objectContaining({ schedule_id: created.body.id, status: "queued", conversation_id: id }) }]);
    // A fresh schedule's folder is checked by the agent itself, now rather than at 07:00.
    const refused = await api.post("/schedules", { name: "x", prompt: "p", when: { preset: "hourly" }, target: { fresh: { agent: "claude_code", cwd: `${h.workDir}/missing` } } });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "SCHEDULE_INVALID", details: { field: "target.fresh.cwd" } });
    sub.close();
  },
  TURN,
);
