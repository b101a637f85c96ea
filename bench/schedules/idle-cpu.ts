/**
 * bench/schedules' idle CPU, measured fairly. The first cut measured one in-process daemon twice
 * in a row — none, then right after 1,000 HTTP creates — so the second window also held the
 * creates' after-work (V8's memory-reducer collections of their garbage, the bench's own client
 * sockets timing out) and whatever else the shared cores were doing at that moment; a CPU profile
 * of the loaded window shows no per-schedule work at all (the scheduler's one alarm wakes every
 * 30 s). So: two daemons in two child processes, one with no schedules and one with 1,000, each
 * measured by its own process.cpuUsage() over the SAME windows (same load on the machine), after
 * both went quiet, several windows; the report is each one's median with the spread.
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ApiClient } from "../../packages/daemon/test/support/http-client.js";
import { percentile } from "../support/stats.js";

type Said = { readonly kind: "ready"; readonly url: string; readonly token: string } | { readonly kind: "cpu"; readonly micros: number };

export interface IdleDaemon {
  readonly api: ApiClient;
  /** The process's CPU so far (user + system), µs. */
  cpu(): Promise<number>;
  close(): Promise<void>;
}

/** A daemon (test-daemon, UTC, scripted agent) in its own process. */
export async function forkDaemon(): Promise<IdleDaemon> {
  const child: ChildProcess = fork(fileURLToPath(new URL("./daemon-child.ts", import.meta.url)), [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const next = (kind: Said["kind"]) =>
    new Promise<Said>((resolve, reject) => {
      const onMessage = (m: Said) => {
        if (m.kind !== kind) return;
        child.off("message", onMessage);
        child.off("exit", onExit);
        resolve(m);
      };
      const onExit = (code: number | null) => reject(new Error(`the bench daemon exited (${code}) before saying "${kind}"`));
      child.on("message", onMessage);
      child.once("exit", onExit);
    });
  const ready = (await next("ready")) as Extract<Said, { kind: "ready" }>;
  return {
    api: new ApiClient(ready.url, ready.token),
    async cpu() {
      const said = next("cpu");
      child.send({ kind: "cpu" });
      return ((await said) as Extract<Said, { kind: "cpu" }>).micros;
    },
    async close() {
      const exited = new Promise<void>((r) => child.once("exit", () => r()));
      child.send({ kind: "close" });
      await exited;
    },
  };
}

/** Each daemon's CPU over one window of `msec`, as % of one core. */
export async function cpuWindow(daemons: readonly IdleDaemon[], msec: number, pause: (msec: number) => Promise<void>): Promise<number[]> {
  const before = await Promise.all(daemons.map((d) => d.cpu()));
  const t0 = performance.now();
  await pause(msec);
  const after = await Promise.all(daemons.map((d) => d.cpu()));
  const wall = performance.now() - t0;
  return after.map((a, i) => ((a - before[i]!) / 1000 / wall) * 100);
}

/**
 * Waits (in `sliceMs` windows) until every daemon used under `quietPct` of a core for `quietSlices`
 * windows in a row, or `capMs` passed; how long it took, ms.
 */
export async function settle(daemons: readonly IdleDaemon[], pause: (msec: number) => Promise<void>, opts = { sliceMs: 2000, quietPct: 0.5, quietSlices: 3, capMs: 60_000 }): Promise<number> {
  const t0 = performance.now();
  let quiet = 0;
  while (quiet < opts.quietSlices && performance.now() - t0 < opts.capMs) {
    const pcts = await cpuWindow(daemons, opts.sliceMs, pause);
    quiet = pcts.every((p) => p < opts.quietPct) ? quiet + 1 : 0;
  }
  return performance.now() - t0;
}

export interface IdleFigure {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

/** The median of the windows and their spread. */
export function idleFigure(windows: readonly number[]): IdleFigure {
  const sorted = [...windows].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), min: sorted[0] ?? Number.NaN, max: sorted[sorted.length - 1] ?? Number.NaN };
}

/** One line of the bench's output: how the idle figures were taken and each one's spread. */
export function idleNote(none: IdleFigure, loaded: IdleFigure, windows: number, windowMs: number, settledMs: number): string {
  const spread = (f: IdleFigure) => `${f.min.toFixed(3)}–${f.max.toFixed(3)}`;
  return (
    `idle CPU: two daemons in their own processes measured over the same ${windows} windows of ${windowMs / 1000} s, after both went quiet (${(settledMs / 1000).toFixed(0)} s); ` +
    `medians below, spread none ${spread(none)} %, loaded ${spread(loaded)} %`
  );
}
