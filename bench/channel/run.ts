import { within } from "../support/child.js";
import { ms, summarize, table, verdict } from "../support/stats.js";
import type { ChannelDriver } from "./driver.js";
import { activeConversation, burst, BURST, edits, latency, memory, outboxEmpty, roundTrip, type Burst, type Edits, type Latency } from "./measures.js";

export interface Counts {
  /** Measured phone sends (after the warm-up ones). */
  readonly sends: number;
  /** Text deltas of the long turn (80 a second). */
  readonly deltas: number;
  /** Messages in each burst. */
  readonly burst: number;
  /** Round trips between the two RSS readings. */
  readonly roundTrips: number;
}

export const DEFAULT_COUNTS: Counts = { sends: 50, deltas: 1000, burst: BURST, roundTrips: 1000 };

export interface PlatformRun {
  readonly driver: ChannelDriver;
  readonly counts: Counts;
  readonly latency: Latency;
  readonly edits: Edits;
  readonly held: Burst;
  readonly instant: Burst;
  readonly memory: { before: number; after: number; heapBefore: number; heapAfter: number; seconds: number };
}

/** Every measure on one platform, against its own fake and a daemon of its own. */
export async function runPlatform(driver: ChannelDriver, counts: Counts): Promise<PlatformRun> {
  const rig = await driver.start();
  try {
    await within(30_000, roundTrip(rig, "hello"), "first round trip");
    const conversationId = await activeConversation(rig);
    const sub = await rig.t.subscribe(conversationId);
    try {
      const lat = await latency(rig, sub, counts.sends);
      const ed = await edits(rig, sub, counts.deltas, driver.editWindowMs);
      const held = await burst(rig, sub, conversationId, true, counts.burst);
      const instant = await burst(rig, sub, conversationId, false, counts.burst);
      const mem = await memory(rig, counts.roundTrips);
      await within(60_000, outboxEmpty(rig), "last replies delivered");
      return { driver, counts, latency: lat, edits: ed, held, instant, memory: mem };
    } finally {
      sub.close();
    }
  } finally {
    await rig.close();
  }
}

export interface Verdicts {
  readonly latency: boolean;
  readonly edits: boolean;
  readonly held: boolean;
  readonly instant: boolean;
}

export function verdicts(r: PlatformRun): Verdicts {
  return {
    latency: summarize(r.latency.beyond).p95 <= 50,
    edits: r.edits.maxInWindow <= r.driver.maxEditsPerWindow,
    held: r.held.oneBatch && r.held.accounted && r.held.ranOnceInOrder,
    instant: r.instant.oneBatch && r.instant.accounted && r.instant.ranOnceInOrder,
  };
}

/** One platform's block: the table (its figures beside its fake's floor) and the detail lines. */
export function platformReport(r: PlatformRun): string {
  const { driver: d, latency: lat, edits: ed, held, instant, memory: mem } = r;
  const ok = verdicts(r);
  const total = summarize(lat.toTurnStart);
  const floor = summarize(lat.floor);
  const beyond = summarize(lat.beyond);
  const desk = summarize(lat.desktop);
  const window = `${d.editWindowMs / 1000} s`;
  const callText = Object.entries(ed.calls).map(([m, n]) => `${m} ${n}`).join(", ");
  const nonPoll = Object.entries(ed.calls).filter(([m]) => m !== d.pollMethod).reduce((s, [, n]) => s + n, 0);
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  const size = r.counts.burst;
  const rows = table([
    ["measure", "channel", "floor", "beyond the floor", "bar", "verdict"],
    ["(1) phone → turn_start p50", ms(total.p50), ms(floor.p50), ms(beyond.p50), "", ""],
    ["(1) phone → turn_start p95", ms(total.p95), ms(floor.p95), ms(beyond.p95), "beyond ≤ 50 ms", verdict(ok.latency)],
    ["(1) phone → turn_start max", ms(total.max), ms(floor.max), ms(beyond.max), "", ""],
    ["(1') desktop POST → turn_start p50 / p95 (reference)", `${ms(desk.p50)} / ${ms(desk.p95)}`, "", "", "(not a bar)", ""],
    ["(2) edits in the chat", `${ed.edits} over ${(ed.spanMs / 1000).toFixed(1)} s (${ed.deltas} deltas)`, `${Math.floor(ed.spanMs / d.editWindowMs)} intervals`, "", "", ""],
    [`(2) most edits in any ${window}`, String(ed.maxInWindow), "", "", `≤ ${d.maxEditsPerWindow}`, verdict(ok.edits)],
    [`(2) ${d.name} calls during the turn`, `${nonPoll}${d.pollMethod ? " + polls" : ""}`, "", "", "", ""],
    ["(3) burst while held: queued / refused / started", `${held.queued} / ${held.refused} / ${held.started}`, "", "", `sum ${size}, ${d.batchWords}, each once in order`, verdict(ok.held)],
    [
      "(3) burst, instant turns: ran / refused",
      `${instant.ran} / ${instant.refused} (${instant.started} started at once, ${instant.queued} queued)`,
      "",
      "",
      `sum ${size}, ${d.batchWords}, each once in order`,
      verdict(ok.instant),
    ],
    ["(4) RSS before → after round trips", `${mb(mem.before)} → ${mb(mem.after)}`, "", `${mem.after >= mem.before ? "+" : ""}${mb(mem.after - mem.before)}`, "(not a bar)", ""],
  ]);
  return [
    `── ${d.name} ──`,
    rows,
    "",
    `(2) calls by method during the turn: ${callText}`,
    `(3) held: ${d.batchWords} ${held.oneBatch}; ${held.queuedReplies} acknowledged as queued and ${held.refused} as refused in ${held.replyMessages} bot message(s); ${held.ran} ran after release, each once in order: ${held.ranOnceInOrder}`,
    `(3) instant: ${d.batchWords} ${instant.oneBatch}; each accepted ran once in order: ${instant.ranOnceInOrder}`,
    `(4) ${r.counts.roundTrips} round trips in ${mem.seconds.toFixed(1)} s; heap after a full GC ${mb(mem.heapBefore)} → ${mb(mem.heapAfter)} (one process: daemon, fake and client)`,
  ].join("\n");
}
