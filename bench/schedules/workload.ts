/**
 * bench/schedules' workload, apart from its timing: load N schedules, add the due ones, collect
 * each due run's `schedule_run` audit row and report the dispatch. The bench (main.ts) runs it on
 * the system clock and waits in real time; its test (schedules-bench.test.ts) runs the same code
 * on a ManualAlarmClock with small N and moves the clock by hand.
 */
import type { ApiClient } from "../../packages/daemon/test/support/http-client.js";
import { ms, summarize, table, verdict } from "../support/stats.js";

export const BAR_P99_MS = 1000;

/** One due run, as its audit row tells it. */
export interface DispatchedRun {
  readonly id: number;
  readonly scheduleId: string;
  readonly dueAt: number;
  readonly at: number;
}

export interface DispatchReport {
  readonly expected: number;
  readonly dispatched: number;
  /** Schedules whose due run was audited more than once (must be none). */
  readonly duplicates: number;
  /** Every run dispatched in the order of its due time (audit order). */
  readonly inOrder: boolean;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly pass: boolean;
}

/**
 * `loaded` daily schedules (the daemon's zone is UTC), heartbeats spread over the conversations,
 * due over five hours that start six hours after `nowMs`: never due while the bench runs, at
 * whatever time of day it is started.
 */
export async function loadSchedules(api: ApiClient, conversations: readonly string[], loaded: number, nowMs = Date.now()): Promise<void> {
  const firstHour = new Date(nowMs).getUTCHours() + 6;
  for (let i = 0; i < loaded; i++) {
    const hour = (firstHour + (Math.floor(i / 200) % 5)) % 24;
    const at = `${String(hour).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}`;
    const res = await api.post("/schedules", { name: `loaded ${i}`, prompt: "p", when: { preset: "daily_at", at }, target: { conversation_id: conversations[i % conversations.length] } });
    if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
  }
}

/**
 * `due` one-off schedules (six-field cron, UTC) at whole seconds from `startMs`, spread over
 * `spreadSeconds`; their due times (epoch ms), in creation order.
 */
export async function addDueSchedules(api: ApiClient, conversations: readonly string[], due: number, startMs: number, spreadSeconds = 20): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < due; i++) {
    const at = startMs + Math.floor((i * spreadSeconds) / due) * 1000;
    const d = new Date(at);
    const cron = `${d.getUTCSeconds()} ${d.getUTCMinutes()} ${d.getUTCHours()} ${d.getUTCDate()} ${d.getUTCMonth() + 1} *`;
    const res = await api.post("/schedules", { name: `due ${i}`, prompt: "due", when: { cron }, target: { conversation_id: conversations[i % conversations.length] } });
    if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
    times.push(at);
  }
  return times;
}

/** The `schedule_run` audit rows so far, oldest first. */
export async function dispatchedRuns(api: ApiClient, limit: number): Promise<DispatchedRun[]> {
  const entries = (await api.get(`/audit?action=schedule_run&limit=${limit}`)).body.entries as { id: number; at: string; details: { schedule_id: string; due_at: string } }[];
  return entries
    .map((e) => ({ id: e.id, scheduleId: e.details.schedule_id, dueAt: Date.parse(e.details.due_at), at: Date.parse(e.at) }))
    .sort((a, b) => a.id - b.id);
}

/** Polls the audit until `expected` runs are in (or `give up` says stop); `wait` is the pause between looks. */
export async function collectRuns(api: ApiClient, expected: number, wait: () => Promise<void>, giveUp: () => boolean): Promise<DispatchedRun[]> {
  let runs = await dispatchedRuns(api, expected + 10);
  while (runs.length < expected && !giveUp()) {
    await wait();
    runs = await dispatchedRuns(api, expected + 10);
  }
  return runs;
}

export function dispatchReport(runs: readonly DispatchedRun[], expected: number): DispatchReport {
  const perSchedule = new Map<string, number>();
  for (const r of runs) perSchedule.set(r.scheduleId, (perSchedule.get(r.scheduleId) ?? 0) + 1);
  const duplicates = [...perSchedule.values()].filter((n) => n > 1).length;
  const inOrder = runs.every((r, i) => i === 0 || runs[i - 1]!.dueAt <= r.dueAt);
  const s = summarize(runs.map((r) => r.at - r.dueAt));
  const dispatched = perSchedule.size;
  return { expected, dispatched, duplicates, inOrder, p50: s.p50, p99: s.p99, max: s.max, pass: s.p99 <= BAR_P99_MS && dispatched === expected && duplicates === 0 };
}

/** The bench's printed table (its format is the bench's output; tests read its rows). */
export function reportTable(r: DispatchReport, idle: { none: number; loaded: number; count: number }): string {
  return table([
    ["measure", "value"],
    ["idle CPU, no schedules", `${idle.none.toFixed(3)} % of a core`],
    [`idle CPU, ${idle.count} schedules`, `${idle.loaded.toFixed(3)} % of a core`],
    [`due runs dispatched`, `${r.dispatched} of ${r.expected}`],
    ["dispatch delay p50", ms(r.p50)],
    ["dispatch delay p99", `${ms(r.p99)} ${verdict(r.pass)} (bar ${BAR_P99_MS} ms)`],
    ["dispatch delay max", ms(r.max)],
  ]);
}
