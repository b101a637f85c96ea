import { ScheduleListOut, ScheduleOut } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ManualAlarmClock } from "../../daemon/test/support/manual-alarm-clock.js";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { cofferAgainst } from "./support/run-cli.js";

// DAEMON-BACKED: `coffer schedule` against a real daemon whose clock the test moves by hand.
// Monday 7 December 2026, 06:00 in Berlin; 07:00 there is 06:00 UTC.
const clock = new ManualAlarmClock(Date.parse("2026-12-07T05:00:00.000Z"));
let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon({ clock, alarms: clock, timeZone: "Europe/Berlin" });
});
afterAll(() => t?.close());

const coffer = (args: string[]) => cofferAgainst(t, args);
const listed = async () => ScheduleListOut.parse(JSON.parse((await coffer(["schedule", "list", "--json"])).stdout)).schedules;

describe("coffer schedule against the daemon [daemon-backed]", { timeout: 90_000 }, () => {
  test("add → list → edit → pause/resume → run → delete; chat show marks a scheduled message ⏰", async () => {
    const id = await t.conversation();
    const added = await coffer(["schedule", "add", "--daily", "7:00", "--prompt", "triage the failing tests", "--conversation", id.slice(0, 10), "--name", "triage"]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^when: +daily at 07:00 \(Europe\/Berlin\)$/m);
    const [s, ...others] = await listed();
    expect(others).toEqual([]);
    expect(s).toMatchObject({ name: "triage", when: { preset: "daily_at", at: "07:00" }, target: { conversation_id: id }, next_run_at: "2026-12-07T06:00:00.000Z" });

    const edited = await coffer(["schedule", "edit", "triage", "--cron", "0 7 * * 1-5", "--json"]);
    expect(edited.code, edited.stderr).toBe(0);
    expect(ScheduleOut.parse(JSON.parse(edited.stdout)).when).toEqual({ cron: "0 7 * * 1-5" });

    expect(await coffer(["schedule", "pause", s!.id.slice(0, 6)])).toMatchObject({ code: 0, stdout: "paused triage\n" });
    expect((await listed())[0]).toMatchObject({ paused: true, next_run_at: null });
    const resumed = await coffer(["schedule", "resume", "triage"]);
    expect(resumed.stdout).toMatch(/^resumed triage; next run /);

    const sub = await t.subscribe(id);
    const ran = await coffer(["schedule", "run", "triage"]);
    expect(ran).toMatchObject({ code: 0, stdout: `sent to conversation ${id}\n` });
    await sub.waitFor((e) => e.type === "turn_done");
    sub.close();
    const show = await coffer(["chat", "show", id]);
    expect(show.stdout).toContain("you · ⏰ triage");

    // Usage mistakes are caught before the daemon is asked (exit 4, USAGE); a bad cron is the daemon's 422.
    expect((await coffer(["schedule", "add", "--prompt", "p", "--conversation", id])).code).toBe(4);
    expect((await coffer(["schedule", "add", "--daily", "25:00", "--prompt", "p", "--conversation", id])).code).toBe(4);
    const badCron = await coffer(["schedule", "add", "--cron", "nope", "--prompt", "p", "--conversation", id]);
    expect(badCron.stderr).toContain("[SCHEDULE_INVALID]");

    expect(await coffer(["schedule", "delete", "triage"])).toMatchObject({ code: 0, stdout: "deleted triage\n" });
    expect(await listed()).toEqual([]);
    const gone = await coffer(["schedule", "run", "triage"]);
    expect(gone.stderr).toContain("[SCHEDULE_NOT_FOUND]");
  });
});
