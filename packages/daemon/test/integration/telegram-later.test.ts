/**
 * The phone's /later (issue 27, send later) with a real daemon, real SQLite and grammY against the
 * fake Bot API, the clock moved by hand: a message at a time in the owner's zone ("⏰ Will send
 * at …"), listed in /later and /status, cancelled by number, and sent when due.
 */
import { afterEach, describe, expect } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { commandAnswer as command, startChannelRig, type ChannelRig } from "../support/channel-rig.js";
import { ManualAlarmClock } from "../support/manual-alarm-clock.js";

let rig: ChannelRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

// Monday 7 December 2026, 06:00 in Berlin (05:00 UTC); "07:00" on the phone is Berlin's.
const SIX = Date.parse("2026-12-07T05:00:00.000Z");

describe("the phone's /later", () => {
  acceptance("027-schedules", "/later <when> <text> schedules from the phone", async () => {
    const clock = new ManualAlarmClock(SIX);
    rig = await startChannelRig({ clock, alarms: clock, timeZone: "Europe/Berlin" });
    const { t, tg } = rig;
    await tg.waitFor((f) => f.calls("setMyCommands").some((c) => JSON.stringify(c.params.commands).includes('"later"')));
    expect(await command(rig, "/help")).toContain("/later — Send later");
    expect(await command(rig, "/later")).toMatch(/^Nothing waits to be sent later here\. Usage: \/later <when> <text>/);

    // "07:00" is the owner's 07:00 (Berlin), the next one.
    expect(await command(rig, "/later 07:00 stand-up notes please")).toBe("⏰ Will send at Mon 7 Dec, 07:00. /later lists what waits; /later cancel <n> drops one.");
    expect(await command(rig, "/later tomorrow 9am weekly report")).toBe("⏰ Will send at Tue 8 Dec, 09:00. /later lists what waits; /later cancel <n> drops one.");
    expect(await command(rig, "/later in 2h\nsecond line kept")).toBe("⏰ Will send at Mon 7 Dec, 08:00. /later lists what waits; /later cancel <n> drops one.");
    expect(await command(rig, "/later soonish hello")).toMatch(/^That is not a time I know\./);
    expect(await command(rig, "/later 07:00")).toMatch(/^What should I send\?/);

    const conversationId = ((await t.api.get("/chat/conversations")).body.conversations as any[])[0].id as string;
    const queued = (await t.api.get(`/chat/conversations/${conversationId}/pending`)).body.pending as any[];
    expect(queued.map((p) => [p.text, p.later.send_at])).toEqual([
      ["stand-up notes please", "2026-12-07T06:00:00.000Z"],
      ["weekly report", "2026-12-08T08:00:00.000Z"],
      ["second line kept", "2026-12-07T07:00:00.000Z"],
    ]);

    expect(await command(rig, "/later")).toBe(
      [
        "⏰ Sent later (3):",
        "1. ⏰ Mon 7 Dec, 07:00 — “stand-up notes please”",
        "2. ⏰ Tue 8 Dec, 09:00 — “weekly report”",
        "3. ⏰ Mon 7 Dec, 08:00 — “second line kept”",
        "",
        "/later cancel <n> drops one.",
      ].join("\n"),
    );
    expect(await command(rig, "/status")).toContain("Queue: 3 waiting\n  ⏰ Mon 7 Dec, 07:00 — “stand-up notes please”\n  ⏰ Tue 8 Dec, 09:00 — “weekly report”");
    expect(await command(rig, "/later cancel 2")).toBe("🗑 Cancelled “weekly report”.");
    expect(await command(rig, "/later cancel 9")).toBe("Which one? Use a number from /later (1 to 3).");
    expect((await t.api.get("/audit?action=chat_later_cancelled")).body.entries[0].details).toMatchObject({ conversation_id: conversationId });

    // 07:00 Berlin: the first one is sent into the conversation, and the reply comes back to the phone.
    const sub = await t.subscribe(conversationId);
    clock.advanceTo(Date.parse("2026-12-07T06:00:00.000Z"));
    await sub.waitFor((e) => e.type === "turn_done");
    const users = ((await t.api.get(`/chat/conversations/${conversationId}/messages`)).body.messages as any[]).filter((m) => m.role === "user");
    expect(users.map((m) => m.content[0].text)).toEqual(["stand-up notes please"]);
    expect((await t.api.get(`/chat/conversations/${conversationId}/pending`)).body.pending.map((p: any) => p.text)).toEqual(["second line kept"]);
    sub.close();
  });
});
