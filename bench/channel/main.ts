/**
 * bench/channel — each chat platform against our own fake of it on 127.0.0.1: a real daemon
 * in-process per platform (real SQLite, real HTTP, the scripted agent), the default channel
 * timings. One block per platform, each beside its fake's floor measured in the same run:
 *   (1) phone message → turn_start on the conversation's live bus (real SSE, as a page reads it),
 *       beside the FLOOR: the fake's own hand-over (Telegram: the held getUpdates answered;
 *       Discord: MESSAGE_CREATE written to the gateway socket)
 *       and, for reference, the page's POST /messages → turn_start in the same run
 *   (2) a 1,000-delta turn over ≥ 10 s with tool steps: edits per chat, most edits in any of the
 *       platform's edit windows (Telegram: the channel's 1.5 s interval; Discord: its 5 per 5 s
 *       bucket, which the fake enforces with 429s), every platform call during the turn
 *   (3) 100 phone messages at once (one getUpdates batch on Telegram, 100 gateway frames on Discord), while a turn is held and
 *       while turns are instant: queued / refused / started, none lost, the queue runs each once in order
 *   (4) RSS before/after 1,000 phone round trips (this process: daemon + fake + client together)
 * The per-platform part (fake, injection, floor, edit counting) is a driver (driver.ts); the
 * measures (measures.ts) and the report (run.ts) name no platform.
 *
 * Run: npm run build && npm run bench:channel   (env CHANNEL_SENDS, CHANNEL_ROUND_TRIPS,
 * CHANNEL_PLATFORMS=telegram,… to run some platforms only)
 */
import { cpus, loadavg } from "node:os";
import type { ChannelDriver } from "./driver.js";
import { DEFAULT_COUNTS, platformReport, runPlatform, verdicts } from "./run.js";
import { discordDriver } from "./discord-driver.js";
import { telegramDriver } from "./telegram-driver.js";

/** Every platform the bench knows, by kind: a new one is one more driver here. */
const DRIVERS: Readonly<Record<string, ChannelDriver>> = { telegram: telegramDriver, discord: discordDriver };

const counts = {
  ...DEFAULT_COUNTS,
  sends: Number(process.env.CHANNEL_SENDS ?? DEFAULT_COUNTS.sends),
  roundTrips: Number(process.env.CHANNEL_ROUND_TRIPS ?? DEFAULT_COUNTS.roundTrips),
};
const chosen = (process.env.CHANNEL_PLATFORMS ?? Object.keys(DRIVERS).join(",")).split(",").map((k) => k.trim()).filter(Boolean);

async function main(): Promise<void> {
  const unknown = chosen.filter((k) => !DRIVERS[k]);
  if (unknown.length) throw new Error(`CHANNEL_PLATFORMS: no driver for ${unknown.join(", ")} (known: ${Object.keys(DRIVERS).join(", ")})`);
  console.log(`bench/channel  (each platform against its fake on 127.0.0.1, default channel timings; ${counts.sends} sends, ${counts.burst}-message bursts)`);
  console.log(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(" ")} on ${cpus().length} cores`);
  let ok = true;
  for (const kind of chosen) {
    const run = await runPlatform(DRIVERS[kind]!, counts);
    console.log(`\n${platformReport(run)}`);
    ok &&= Object.values(verdicts(run)).every(Boolean);
  }
  console.log(`\nload average at end: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  process.exitCode = ok ? 0 : 1;
}

await main();
