/**
 * The phone's /schedules (issue 27) with a real daemon, real SQLite and grammY against the fake
 * Bot API, the clock moved by hand (ManualAlarmClock): the list in the schedule's own zone,
 * pause, resume, run now (the prompt goes into its conversation), delete behind a `yes`, and one
 * clear line for a bad number or word. Each change goes through the API's service: the API and
 * `coffer schedule` see it, and the audit names the channel as the one who did it.
 */
import { afterEach, describe, expect, test } from "vitest";
import { cofferAgainst } from "../../../cli/test/support/run-cli.js";
import { acceptance } from "../support/acceptance.js";
import { OWNER, startChannelRig, type ChannelRig } from "../support/channel-rig.js";
import { ManualAlarmClock } from "../support/manual-alarm-clock.js";

// Monday 7 December 2026, 06:00 in Berlin (05:00 UTC): today's 07:00 there is 06:00 UTC.
const MONDAY_0600_BERLIN = Date.parse("2026-12-07T05:00:00.000Z");
const ZONE = "Europe/Berlin";

let rig: ChannelRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

/** The owner sends `text`; resolves with the bot's next message (the command's answer). */
async function command(r: ChannelRig, text: string): Promise<string> {
  const before = r.botMessages().length;
  r.say(text);
  await r.tg.waitFor(() => r.botMessages().length > before);
  return r.botMessages()[before]!.text;
}

describe("the phone's /schedules", () => {
  acceptance(
    "027-schedules",
    "schedules are listed, paused, edited and deleted from the API, coffer schedule and the phone (/schedules)",
    async () => {
      const clock = new ManualAlarmClock(MONDAY_0600_BERLIN);
      rig = await startChannelRig({ clock, alarms: clock, timeZone: ZONE });
      const { t, tg, channelId } = rig;
      // The menu and /help name it.
      await tg.waitFor((f) => f.calls("setMyCommands").some((c) => JSON.stringify(c.params.commands).includes('"schedules"')));
      expect(await command(rig, "/help")).toContain("/schedules — Your schedules");

      expect(await command(rig, "/schedules")).toBe("No schedules yet. Add one in Settings → Schedules or with “coffer schedule add”.");
      // Two schedules from the API: a heartbeat into a conversation, and a paused fresh one.
      const conv = (await t.api.post("/chat/conversations", { agent_key: "scripted", agent_config: {}, title: "Nightly triage" })).body.id as string;
      const triage = await t.api.post("/schedules", { name: "morning triage", prompt: "triage the failing tests", when: { preset: "daily_at", at: "07:00" }, target: { conversation_id: conv } });
      expect(triage.status).toBe(201);
      // A second later (the list is oldest first; the same instant would order them by id).
      clock.advanceBy(1000);
      const report = await t.api.post("/schedules", { name: "weekly report", prompt: "write the report", when: { preset: "weekdays_at", at: "08:15" }, target: { fresh: { agent: "scripted", cwd: t.workspace } }, paused: true });
      expect(report.status).toBe(201);

      const list = await command(rig, "/schedules");
      expect(list).toBe(
        [
          "⏰ Schedules (2):",
          "1. morning triage — Daily at 07:00 · Europe/Berlin",
          "   Into “Nightly triage”",
          "   active · next Mon 7 Dec, 07:00",
          "2. weekly report — Weekdays at 08:15 · Europe/Berlin",
          `   A fresh scripted conversation in ${t.workspace}`,
          "   ⏸ paused",
          "",
          "/schedules pause <n> · resume <n> · run <n> (now) · delete <n>",
        ].join("\n"),
      );

      // Pause: the API and `coffer schedule` see it; the audit names the channel.
      expect(await command(rig, "/schedules pause 1")).toBe("⏸ Paused “morning triage”. Resume it with /schedules resume 1.");
      expect((await t.api.get(`/schedules/${triage.body.id}`)).body).toMatchObject({ paused: true, next_run_at: null });
      const cli = await cofferAgainst(t, ["schedule", "list", "--json"]);
      expect(cli.code, cli.stderr).toBe(0);
      expect(JSON.parse(cli.stdout).schedules.map((s: { name: string; paused: boolean }) => [s.name, s.paused])).toEqual([["morning triage", true], ["weekly report", true]]);
      const changed = (await t.api.get("/audit?action=schedule_changed")).body.entries;
      expect(changed).toHaveLength(1);
      expect(changed[0]).toMatchObject({ principal: { kind: "channel", channel_id: channelId }, details: { schedule_id: triage.body.id, changed: ["paused"], paused: true } });
      expect(await command(rig, "/schedules pause 1")).toBe("“morning triage” is already paused.");

      // Resume: it counts from now, and says when in the schedule's zone.
      expect(await command(rig, "/schedules resume 1")).toBe("▶️ Resumed “morning triage”: next run Mon 7 Dec, 07:00.");
      // Edited on the API, the phone's list follows.
      await t.api.patch(`/schedules/${triage.body.id}`, { when: { preset: "hourly" } });
      expect(await command(rig, "/schedules")).toContain("1. morning triage — Hourly · Europe/Berlin\n   Into “Nightly triage”\n   active · next Mon 7 Dec, 07:00");

      // Run now: the prompt goes into its conversation, marked as the schedule's.
      const sub = await t.subscribe(conv);
      expect(await command(rig, "/schedules run 1")).toBe("📨 Sent “morning triage” into “Nightly triage”.");
      const start = await sub.waitFor((e) => e.type === "turn_start");
      expect((start.event as any).user_message).toMatchObject({ content: [{ type: "text", text: "triage the failing tests" }], schedule: { id: triage.body.id, name: "morning triage" } });
      await sub.waitFor((e) => e.type === "turn_done");
      sub.close();
      // The owner's alert for the finished turn reaches the phone too: wait for it, so the next answer is the command's.
      await rig.botSays((m) => m.text.startsWith("✔️ Finished: Nightly triage"));
      expect(await command(rig, "/schedules")).toContain("active · next Mon 7 Dec, 07:00 · last Mon 7 Dec, 06:00: sent");

      // Delete asks first; `yes` deletes, audited as the channel.
      expect(await command(rig, "/schedules delete 2")).toBe("Delete “weekly report”? It stops for good. Send /schedules delete 2 yes to confirm.");
      expect((await t.api.get("/schedules")).body.schedules).toHaveLength(2);
      expect(await command(rig, "/schedules delete 2 yes")).toBe("🗑 Deleted “weekly report”.");
      expect((await t.api.get("/schedules")).body.schedules.map((s: { id: string }) => s.id)).toEqual([triage.body.id]);
      const deleted = (await t.api.get("/audit?action=schedule_deleted")).body.entries;
      expect(deleted[0]).toMatchObject({ principal: { kind: "channel", channel_id: channelId }, details: { schedule_id: report.body.id } });

      // Bad input: one line with the usage; a number means what the last list showed.
      const usage = "Usage: /schedules, then /schedules pause <n>, resume <n>, run <n> or delete <n>.";
      expect(await command(rig, "/schedules frobnicate 1")).toBe(usage);
      expect(await command(rig, "/schedules delete 1 no")).toBe(usage);
      expect(await command(rig, "/schedules pause")).toBe(`Which one? Use a number from /schedules (1 to 2). ${usage}`);
      expect(await command(rig, "/schedules pause 2")).toBe("That schedule is gone. Send /schedules for the current ones.");
      expect(await command(rig, "/schedules")).toMatch(/^⏰ Schedules \(1\):\n1\. morning triage/);
      expect(await command(rig, "/schedules run 7")).toBe(`Which one? Use a number from /schedules (1 to 1). ${usage}`);
      // Nothing went to the agent: every command was answered by the channel itself.
      expect(tg.chat(OWNER.id).filter((m) => m.from === "bot" && m.text.includes("triage the failing tests"))).toEqual([]);
    },
    60_000,
  );

  test("a long list stays one phone message, and every number still works", async () => {
    const clock = new ManualAlarmClock(MONDAY_0600_BERLIN);
    rig = await startChannelRig({ clock, alarms: clock, timeZone: ZONE });
    const { t } = rig;
    const conv = await t.conversation();
    const ids: string[] = [];
    for (let i = 1; i <= 40; i++) {
      const res = await t.api.post("/schedules", { name: `check number ${i} of the nightly builds`, prompt: "p", when: { preset: "daily_at", at: "07:00" }, target: { conversation_id: conv } });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
      clock.advanceBy(1000);
    }
    const list = await command(rig, "/schedules");
    expect(list.length).toBeLessThan(4096);
    const shown = list.split("\n").filter((line) => /^\d+\. /.test(line)).length;
    expect(shown).toBeGreaterThan(5);
    expect(shown).toBeLessThan(40);
    expect(list).toContain(`… and ${40 - shown} more (${shown + 1} to 40): Settings → Schedules or “coffer schedule list” shows them all.`);
    // A number past the shown ones acts on that schedule.
    expect(await command(rig, "/schedules pause 40")).toBe("⏸ Paused “check number 40 of the nightly builds”. Resume it with /schedules resume 40.");
    expect((await t.api.get(`/schedules/${ids[39]}`)).body.paused).toBe(true);
  }, 60_000);
});
