/**
 * bench/schedules — 1,000 schedules loaded: the daemon's idle CPU against none, and how late a
 * due run is dispatched (issue 27's bar: p99 ≤ 1 s after its time; idle CPU not measurably above
 * no schedules).
 *
 * In one process, a real daemon (real SQLite, the system AlarmClock, the scripted agent):
 *   1. idle CPU with no schedules, over SCHED_IDLE_MS;
 *   2. 1,000 daily schedules added (due at night, never during the run), idle CPU again;
 *   3. SCHED_DUE (200) more, due at whole seconds spread over the next ~20 s (six-field cron),
 *      heartbeats into 40 conversations; each run's dispatch delay is its `schedule_run` audit
 *      row's time less its due time.
 * The bench waits in real time (it measures real timers); tests never do.
 *
 * Run: npm run build && npm run bench:schedules   (env SCHED_IDLE_MS=20000, SCHED_DUE=200)
 */
import { cpus, loadavg } from "node:os";
import { startTestDaemon } from "../../packages/daemon/test/support/test-daemon.js";
import { addDueSchedules, collectRuns, dispatchReport, loadSchedules, reportTable } from "./workload.js";

const IDLE_MS = Number(process.env.SCHED_IDLE_MS ?? 20_000);
const LOADED = 1000;
const DUE = Number(process.env.SCHED_DUE ?? 200);

const pause = (msec: number) => new Promise<void>((r) => setTimeout(r, msec));

/** This process's CPU over the window, as % of one core (the daemon is the only thing running in it). */
async function idleCpu(): Promise<number> {
  const before = process.cpuUsage();
  const t0 = performance.now();
  await pause(IDLE_MS);
  const used = process.cpuUsage(before);
  return ((used.user + used.system) / 1000 / (performance.now() - t0)) * 100;
}

const t = await startTestDaemon({ timeZone: "UTC" });
try {
  const convs: string[] = [];
  for (let i = 0; i < 40; i++) convs.push(await t.conversation());
  const none = await idleCpu();

  // Due between 00:00 and 04:59 UTC: never within a run started in the day (the bench says so if not).
  const hour = new Date().getUTCHours();
  if (hour < 5) console.warn("run this bench after 05:00 UTC: the loaded schedules are due before then");
  await loadSchedules(t.api, convs, LOADED);
  const loaded = await idleCpu();

  // Whole seconds from 5 s ahead, DUE of them spread over ~20 s.
  await addDueSchedules(t.api, convs, DUE, Math.ceil(Date.now() / 1000) * 1000 + 5000);
  const deadline = Date.now() + 60_000;
  const runs = await collectRuns(t.api, DUE, () => pause(500), () => Date.now() >= deadline);
  console.log(`bench/schedules on ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}; idle windows of ${IDLE_MS / 1000} s`);
  console.log(reportTable(dispatchReport(runs, DUE), { none, loaded, count: LOADED }));
} finally {
  await t.close();
}
