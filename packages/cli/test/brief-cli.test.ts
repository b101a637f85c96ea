import { BriefSettingsOut } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ManualAlarmClock } from "../../daemon/test/support/manual-alarm-clock.js";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { cofferAgainst } from "./support/run-cli.js";

// DAEMON-BACKED: `coffer brief` against a real daemon whose clock the test moves by hand.
// Monday 7 December 2026, 06:00 in Berlin; 07:30 there is 06:30 UTC.
const clock = new ManualAlarmClock(Date.parse("2026-12-07T05:00:00.000Z"));
let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon({ clock, alarms: clock, timeZone: "Europe/Berlin" });
});
afterAll(() => t?.close());

const coffer = (args: string[]) => cofferAgainst(t, args);
const shown = async () => BriefSettingsOut.parse(JSON.parse((await coffer(["brief", "show", "--json"])).stdout));

describe("coffer brief against the daemon [daemon-backed]", { timeout: 90_000 }, () => {
  test("show → on → at → now → off; a bad time is a usage error", async () => {
    const off = await coffer(["brief", "show"]);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toMatch(/^brief: +off$/m);
    expect(off.stdout).toMatch(/^at: +07:30 \(Europe\/Berlin\)$/m);

    expect((await coffer(["brief", "on", "--page-only"])).code).toBe(0);
    expect(await shown()).toMatchObject({ enabled: true, to: { phone: false, page: true }, next_at: "2026-12-07T06:30:00.000Z" });
    expect((await coffer(["brief", "at", "6:45"])).stdout).toMatch(/^at: +06:45 \(Europe\/Berlin\)$/m);
    expect((await shown()).next_at).toBe("2026-12-07T05:45:00.000Z");

    const now = await coffer(["brief", "now"]);
    expect(now.code, now.stderr).toBe(0);
    expect(now.stdout).toMatch(/^☀️ Coffer brief — since Sun 06:00: a quiet night — nothing ran, nothing waits\.$/m);
    expect(now.stdout).toContain("(sent to the page)");

    expect((await coffer(["brief", "at", "25:00"])).code).toBe(4);
    expect((await coffer(["brief", "off"])).stdout).toMatch(/^brief: +off$/m);
    expect((await shown()).next_at).toBeNull();
  });
});
