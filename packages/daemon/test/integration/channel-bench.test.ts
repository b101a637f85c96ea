/**
 * bench/channel runs on both platforms and nothing is lost (issue 26): the bench's own drivers,
 * measures and report with small counts (a few sends, a short long turn, a few round trips) but
 * the real 100-message bursts. The figures themselves are `npm run bench:channel`'s (more runs, printed).
 */
import { expect } from "vitest";
import { discordDriver } from "../../../../bench/channel/discord-driver.js";
import { platformReport, runPlatform, verdicts } from "../../../../bench/channel/run.js";
import { telegramDriver } from "../../../../bench/channel/telegram-driver.js";
import { acceptance } from "../support/acceptance.js";

const COUNTS = { sends: 2, deltas: 400, burst: 100, roundTrips: 5 };

acceptance(
  "026-second-platform",
  "bench:channel reports Discord beside Telegram: message → turn_start p50/p95 beyond the fake's floor, edits per window, a 100-message burst with nothing lost",
  async () => {
    const report: string[] = [];
    for (const driver of [telegramDriver, discordDriver]) {
      const run = await runPlatform(driver, COUNTS);
      // Each measured send has a floor from the fake itself and a figure beyond it.
      expect(run.latency.floor).toHaveLength(COUNTS.sends);
      for (const [i, floor] of run.latency.floor.entries()) {
        expect(Number.isFinite(floor), `${driver.name} floor`).toBe(true);
        expect(run.latency.toTurnStart[i]).toBeGreaterThanOrEqual(floor);
      }
      // Nothing lost: every burst message ran once in order or was refused out loud, in one go.
      for (const b of [run.held, run.instant]) {
        expect(b, driver.name).toMatchObject({ oneBatch: true, accounted: true, ranOnceInOrder: true });
        expect(b.ran + b.refused, driver.name).toBe(COUNTS.burst);
      }
      const v = verdicts(run);
      // The edit bar holds on both platforms; latency is a bar for the printed run only (a loaded test machine).
      expect([v.edits, v.held, v.instant], driver.name).toEqual([true, true, true]);
      expect(run.edits.edits).toBeGreaterThan(0);
      report.push(platformReport(run));
    }
    const text = report.join("\n\n");
    // One block per platform, each with the same rows.
    expect(text.match(/^── (\w+) ──$/gm)).toEqual(["── Telegram ──", "── Discord ──"]);
    for (const row of ["(1) phone → turn_start p50", "(1) phone → turn_start p95", "(2) most edits in any", "(3) burst while held", "(3) burst, instant turns"]) {
      expect(text.split(row).length - 1, row).toBe(2);
    }
    expect(text).toContain("(2) most edits in any 1.5 s");
    expect(text).toContain("(2) most edits in any 5 s");
  },
  180_000,
);
