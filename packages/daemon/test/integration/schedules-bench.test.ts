/**
 * bench/schedules' own workload under test (issue 27): the bench waits in real time, so here the
 * same code (bench/schedules/workload.ts) runs against a real daemon on a ManualAlarmClock with
 * small N, the clock moved one due second at a time. Every due run is dispatched exactly once, in
 * the order of its due time, and the report the bench prints has its shape. The figures are
 * `npm run bench:schedules`'s.
 */
import { afterEach, describe, expect, test } from "vitest";
import { cpuWindow, forkDaemon, idleFigure, idleNote, settle, type IdleDaemon } from "../../../../bench/schedules/idle-cpu.js";
import { addDueSchedules, collectRuns, dispatchedRuns, dispatchReport, loadSchedules, reportTable } from "../../../../bench/schedules/workload.js";
import { acceptance } from "../support/acceptance.js";
import { ManualAlarmClock } from "../support/manual-alarm-clock.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

// Monday 7 December 2026, 12:00 UTC (and 02:00, when the bench once ran into its own night
// schedules): the loaded schedules are due from six hours on, never within the run.
const NOON = Date.parse("2026-12-07T12:00:00.000Z");
const NIGHT = Date.parse("2026-12-07T02:00:00.000Z");
const LOADED = 30;
const DUE = 12;

let t: TestDaemon | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe("bench/schedules", () => {
  acceptance("027-schedules", "a bench with 1,000 schedules loaded: idle CPU against none and a due run's dispatch delay p99", async () => {
    const clock = new ManualAlarmClock(NOON);
    t = await startTestDaemon({ clock, alarms: clock, timeZone: "UTC" });
    const convs = [await t.conversation(), await t.conversation(), await t.conversation()];
    const alarmsBefore = clock.pending;
    await loadSchedules(t.api, convs, LOADED, NOON);
    // What the idle daemon holds for them: one alarm, at the earliest due time — none per schedule.
    expect(clock.pending).toBe(alarmsBefore + 1);
    const start = NOON + 5000;
    const dueTimes = await addDueSchedules(t.api, convs, DUE, start, 6);
    expect((await t.api.get("/schedules")).body.schedules).toHaveLength(LOADED + DUE);

    // One due second at a time, each second's runs in before the clock moves on (a poll of the
    // audit, no sleep): so "in order" is the scheduler's order, not the test's.
    const seconds = [...new Set(dueTimes)];
    for (const at of seconds) {
      clock.advanceTo(at);
      const expected = dueTimes.filter((d) => d <= at).length;
      await expect.poll(async () => (await dispatchedRuns(t!.api, DUE + 10)).length).toBe(expected);
    }
    // A minute on: nothing fires twice, and no loaded (night) schedule runs.
    clock.advanceBy(60_000);
    const runs = await collectRuns(t.api, DUE, async () => {}, () => true);
    const report = dispatchReport(runs, DUE);
    expect(report).toMatchObject({ expected: DUE, dispatched: DUE, duplicates: 0, inOrder: true, pass: true });
    // On a hand-moved clock each run is sent at exactly its due time.
    expect([report.p50, report.p99, report.max]).toEqual([0, 0, 0]);
    expect(runs.map((r) => r.dueAt)).toEqual([...dueTimes].sort((a, b) => a - b));

    const printed = reportTable(report, { none: 0.2, loaded: 0.1, count: LOADED }).split("\n");
    expect(printed.map((line) => line.split(/ {2,}/)[0])).toEqual([
      "measure",
      "idle CPU, no schedules",
      `idle CPU, ${LOADED} schedules`,
      "due runs dispatched",
      "dispatch delay p50",
      "dispatch delay p99",
      "dispatch delay max",
    ]);
    expect(printed[3]).toMatch(new RegExp(`due runs dispatched +${DUE} of ${DUE}$`));
    expect(printed[5]).toMatch(/dispatch delay p99 +0\.000 ms .*\(bar 1000 ms\)$/);
  });

  test("bench/schedules' loaded schedules are never due within hours of the start, at any time of day", async () => {
    for (const now of [NIGHT, NOON]) {
      const clock = new ManualAlarmClock(now);
      t = await startTestDaemon({ clock, alarms: clock, timeZone: "UTC" });
      await loadSchedules(t.api, [await t.conversation()], 1000, now); // the bench's count: five hours' worth
      const next = ((await t.api.get("/schedules")).body.schedules as { next_run_at: string }[]).map((s) => Date.parse(s.next_run_at));
      expect(next).toHaveLength(1000);
      expect(Math.min(...next) - now).toBeGreaterThanOrEqual(5 * 3600_000); // a bench run takes minutes
      await t.close();
      t = null;
    }
  });

  test("bench/schedules' report fails a run dispatched twice or out of order", () => {
    const run = (id: number, s: string, due: number, at = due) => ({ id, scheduleId: s, dueAt: due, at });
    expect(dispatchReport([run(1, "a", 1000), run(2, "b", 2000)], 2)).toMatchObject({ dispatched: 2, duplicates: 0, inOrder: true, pass: true });
    expect(dispatchReport([run(1, "a", 1000), run(2, "a", 1000)], 1)).toMatchObject({ duplicates: 1, pass: false });
    expect(dispatchReport([run(1, "b", 2000), run(2, "a", 1000)], 2)).toMatchObject({ inOrder: false });
    expect(dispatchReport([run(1, "a", 1000, 2500)], 1)).toMatchObject({ p99: 1500, pass: false });
    expect(dispatchReport([run(1, "a", 1000)], 2)).toMatchObject({ dispatched: 1, pass: false });
  });

  test("bench/schedules' idle figure is the median of its windows, with their spread", () => {
    expect(idleFigure([0.3, 0.05, 0.1, 0.07, 0.9])).toEqual({ median: 0.1, min: 0.05, max: 0.9 });
    const note = idleNote(idleFigure([0.1, 0.2, 0.3]), idleFigure([0.15, 0.25, 0.35]), 3, 20_000, 12_400);
    expect(note).toContain("the same 3 windows of 20 s, after both went quiet (12 s)");
    expect(note).toContain("spread none 0.100–0.300 %, loaded 0.150–0.350 %");
  });

  test("bench/schedules measures a daemon in its own process: its API answers, its CPU counts up, it closes", async () => {
    const d: IdleDaemon = await forkDaemon();
    try {
      expect((await d.api.post("/chat/conversations", { agent_key: "scripted", agent_config: {} })).status).toBe(201);
      const first = await d.cpu();
      expect(first).toBeGreaterThan(0);
      // No real waiting in a test: a window with no pause, and "quiet" as any figure at all.
      const [pct] = await cpuWindow([d], 0, async () => {});
      expect(pct).toBeGreaterThanOrEqual(0);
      await settle([d], async () => {}, { sliceMs: 0, quietPct: Number.POSITIVE_INFINITY, quietSlices: 2, capMs: 60_000 });
      expect(await d.cpu()).toBeGreaterThanOrEqual(first);
    } finally {
      await d.close();
    }
  });
});
