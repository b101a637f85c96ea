/**
 * Codex warm turn start with 1 vs 50 conversations used in the one app-server (issue 16: it
 * grew ≈ 40 ms per loaded thread while threads were never unloaded). Same daemon, same live
 * conversation: its follow-ups are timed with only its thread loaded (the floor), then again
 * after 49 other conversations each ran a turn. `release: false` keeps every thread loaded
 * (COFFER_CODEX_LOADED_THREADS and _IDLE_SECONDS set high), the way it was before.
 */
import { startAgentHarness } from "../../packages/daemon/test/fakes/agent-harness.js";
import { rssMb } from "./footprint.js";
import { median, timeFirstDelta } from "./turn-timing.js";

export interface Crowding {
  readonly one: number[];
  readonly crowded: number[];
  /** Threads Codex reports loaded after the crowded runs. */
  readonly loaded: number;
  /** The app-server's RSS then (MB). */
  readonly rssMb: number | null;
}

export async function codexCrowding(runs: number, others: number, release: boolean): Promise<Crowding> {
  const env = release ? {} : { COFFER_CODEX_LOADED_THREADS: "1000", COFFER_CODEX_IDLE_SECONDS: "3600" };
  const h = await startAgentHarness("codex", { env });
  const d = { url: h.daemon.daemon.url, token: h.daemon.daemon.token, api: h.daemon.api };
  try {
    const live = await h.conversation();
    await timeFirstDelta(d, live, "warm-up");
    const one: number[] = [];
    for (let i = 0; i < runs; i++) one.push(await timeFirstDelta(d, live, `one ${i}`));
    for (let i = 0; i < others; i++) await timeFirstDelta(d, await h.conversation(), `other ${i}`);
    const crowded: number[] = [];
    for (let i = 0; i < runs; i++) crowded.push(await timeFirstDelta(d, live, `crowded ${i}`));
    return { one, crowded, loaded: (await h.provider.loadedThreads()).length, rssMb: rssMb(h.provider.appServerPid) };
  } finally {
    await h.close();
  }
}

export function crowdingRatio(c: Crowding): number {
  return median(c.crowded) / median(c.one);
}
