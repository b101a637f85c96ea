/**
 * bench/schedules — 1,000 schedules loaded: the daemon's idle CPU against none, and how late a
 * due run is dispatched (issue 27's bar: p99 ≤ 1 s after its time; idle CPU not measurably above
 * no schedules).
 *
 * Two real daemons (real SQLite, the system AlarmClock, the scripted agent), each in its own
 * process so each one's CPU is its own (idle-cpu.ts says why):
 *   1. both get 40 conversations; the "loaded" one gets 1,000 daily schedules (due from six hours
 *      after the start, so never during the run at any time of day); the "none" one gets none;
 *   2. both settle (every 2 s window under 0.5 % of a core, three in a row, at most 60 s), then
 *      SCHED_IDLE_WINDOWS (5) windows of SCHED_IDLE_MS measure both at once, under the same load;
 *      the table gives each one's median, the line above it the spread;
 *   3. SCHED_DUE (200) more on the loaded daemon, due at whole seconds spread over the next ~20 s
 *      (six-field cron), heartbeats into its 40 conversations; each run's dispatch delay is its
 *      `schedule_run` audit row's time less its due time.
 * The bench waits in real time (it measures real timers); tests never do.
 *
 * Run: npm run build && npm run bench:schedules   (env SCHED_IDLE_MS=20000, SCHED_IDLE_WINDOWS=5, SCHED_DUE=200)
 */
import { cpus, loadavg } from "node:os";
import { cpuWindow, forkDaemon, idleFigure, idleNote, settle, type IdleDaemon } from "./idle-cpu.js";
import { addDueSchedules, collectRuns, dispatchReport, loadSchedules, reportTable } from "./workload.js";

const IDLE_MS = Number(process.env.SCHED_IDLE_MS ?? 20_000);
const WINDOWS = Number(process.env.SCHED_IDLE_WINDOWS ?? 5);
const LOADED = 1000;
const DUE = Number(process.env.SCHED_DUE ?? 200);

const pause = (msec: number) => new Promise<void>((r) => setTimeout(r, msec));

async function conversations(d: IdleDaemon): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < 40; i++) {
    const res = await d.api.post("/chat/conversations", { agent_key: "scripted", agent_config: {} });
    if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
    ids.push(res.body.id as string);
  }
  return ids;
}

const daemons = await Promise.all([forkDaemon(), forkDaemon()]);
const [none, loaded] = daemons as [IdleDaemon, IdleDaemon];
try {
  await conversations(none);
  const convs = await conversations(loaded);

  await loadSchedules(loaded.api, convs, LOADED); // due from six hours on: never during the run

  const settledMs = await settle(daemons, pause);
  const samples: [number[], number[]] = [[], []];
  for (let w = 0; w < WINDOWS; w++) {
    const [a, b] = await cpuWindow(daemons, IDLE_MS, pause);
    samples[0].push(a!);
    samples[1].push(b!);
  }
  const idleNone = idleFigure(samples[0]);
  const idleLoaded = idleFigure(samples[1]);

  // Whole seconds from 5 s ahead, DUE of them spread over ~20 s.
  await addDueSchedules(loaded.api, convs, DUE, Math.ceil(Date.now() / 1000) * 1000 + 5000);
  const deadline = Date.now() + 60_000;
  const runs = await collectRuns(loaded.api, DUE, () => pause(500), () => Date.now() >= deadline);
  console.log(`bench/schedules on ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}; idle windows of ${IDLE_MS / 1000} s`);
  console.log(idleNote(idleNone, idleLoaded, WINDOWS, IDLE_MS, settledMs));
  console.log(`idle windows, % of a core (none / ${LOADED}): ${samples[0].map((a, w) => `${a.toFixed(3)} / ${samples[1][w]!.toFixed(3)}`).join(", ")}`);
  console.log(reportTable(dispatchReport(runs, DUE), { none: idleNone.median, loaded: idleLoaded.median, count: LOADED }));
} finally {
  await Promise.all(daemons.map((d) => d.close()));
}
