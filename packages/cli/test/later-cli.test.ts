/**
 * `coffer chat send --at/--in/--at-reset` and the queue's send-later times (issue 27) against a
 * real daemon: the time read in the terminal's zone, shown in `chat queue`, changed and cleared.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { laterOf } from "../src/commands/chat-turns.js";
import { cofferAgainst } from "./support/run-cli.js";

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

const coffer = (args: string[]) => cofferAgainst(t, args);
// Monday 7 December 2026, 06:00 in Berlin.
const SIX_BERLIN = Date.parse("2026-12-07T05:00:00.000Z");

describe("coffer chat send later", () => {
  test("--at, --in and --at-reset become the send's time, read in the given zone", () => {
    expect(laterOf({ at: "07:00" }, SIX_BERLIN, "Europe/Berlin")).toEqual({ send_at: "2026-12-07T06:00:00.000Z" });
    expect(laterOf({ at: "tomorrow 09:00" }, SIX_BERLIN, "Europe/Berlin")).toEqual({ send_at: "2026-12-08T08:00:00.000Z" });
    expect(laterOf({ in: "2h" }, SIX_BERLIN)).toEqual({ send_at: "2026-12-07T07:00:00.000Z" });
    expect(laterOf({ atReset: true })).toEqual({ send_when: "limit_reset" });
    expect(laterOf({ at: "2026-12-09T10:00:00Z" })).toEqual({ send_at: "2026-12-09T10:00:00.000Z" });
    expect(() => laterOf({ at: "soon" })).toThrow(/--at takes/);
    expect(() => laterOf({ at: "07:00", in: "2h" })).toThrow(/one of/);
  });

  test("a message sent with --in waits in the queue with its time; --time changes it and `none` sends it in order", async () => {
    const id = await t.conversation();
    const sent = await coffer(["chat", "send", id, "good", "morning", "--in", "2h"]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toMatch(/^⏰ Will send at \w{3} \d{1,2} \w{3}, \d\d:\d\d \(queued; `coffer chat queue <id>` shows it\)\n$/);
    const listed = await coffer(["chat", "queue", id]);
    expect(listed.stdout).toMatch(/^1 pending\n {2}1\. good morning {2}\[⏰ \w{3} \d{1,2} \w{3}, \d\d:\d\d\]\n$/);
    const before = (await t.api.get(`/chat/conversations/${id}/pending`)).body.pending[0].later.send_at;
    expect(Date.parse(before) - Date.now()).toBeGreaterThan(119 * 60_000);

    const moved = await coffer(["chat", "queue", id, "--time", "1", "in", "3h", "--json"]);
    expect(moved.code, moved.stderr).toBe(0);
    expect(Date.parse(JSON.parse(moved.stdout).pending[0].later.send_at) - Date.parse(before)).toBeGreaterThan(59 * 60_000);
    const past = await coffer(["chat", "queue", id, "--time", "1", "2020-01-01T00:00:00Z"]);
    expect(past.code).not.toBe(0);
    expect(past.stderr).toContain("SEND_AT_PAST");

    const sub = await t.subscribe(id);
    const cleared = await coffer(["chat", "queue", id, "--time", "1", "none"]);
    expect(cleared.code, cleared.stderr).toBe(0);
    await sub.waitFor((e) => e.type === "turn_done");
    expect((await t.api.get(`/chat/conversations/${id}/pending`)).body.pending).toEqual([]);
    sub.close();
  });
});
