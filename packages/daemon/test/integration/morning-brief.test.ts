/**
 * The morning brief (issue 27) on a real daemon (real SQLite, real HTTP), the scripted agent,
 * grammY against the fake Bot API, and a ManualAlarmClock: the brief's time comes by hand, a
 * sleep is a jump of the clock, nothing waits in real time.
 */
import { afterEach, describe, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { FAST_CHANNEL, OWNER, channelOptions, startChannelRig, type ChannelRig } from "../support/channel-rig.js";
import { ManualAlarmClock } from "../support/manual-alarm-clock.js";
import { script } from "../support/scripted-agent.js";
import { startTestDaemon } from "../support/test-daemon.js";

const SPEC = "027-schedules";
const ZONE = "Europe/Berlin";
// Monday 7 December 2026, 06:00 in Berlin (05:00 UTC); the brief at 07:30 Berlin is 06:30 UTC.
const MONDAY_0600 = Date.parse("2026-12-07T05:00:00.000Z");
const BRIEF_AT = (day: number) => Date.parse("2026-12-07T06:30:00.000Z") + day * 86_400_000;
const question = { header: "", text: "Which branch?", options: [{ label: "main", description: "" }], multi_select: false, allow_free_text: false };

let rig: ChannelRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

const isBrief = (m: { text: string }) => m.text.startsWith("☀️ Coffer brief");
const briefs = (r: ChannelRig) => r.botMessages().filter(isBrief);

async function rigAt(clock: ManualAlarmClock) {
  rig = await startChannelRig({ clock, alarms: clock, timeZone: ZONE });
  return rig;
}

describe("the morning brief", () => {
  test("settings: off by default, 07:30 in the owner's zone, to both; bad values refused with the field named", async () => {
    const clock = new ManualAlarmClock(MONDAY_0600);
    const { t } = await rigAt(clock);
    expect((await t.api.get("/settings/brief")).body).toEqual({ enabled: false, at: "07:30", to: { phone: true, page: true }, time_zone: ZONE, next_at: null, last_sent_at: null });
    const bad = await t.api.put("/settings/brief", { at: "7:30" });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe("VALIDATION_FAILED");
    expect(JSON.stringify(bad.body.error.details)).toContain("at");
    const nowhere = await t.api.put("/settings/brief", { to: { phone: false, page: false } });
    expect(nowhere.status).toBe(422);
    // Nowhere by two steps: the merged settings are refused too, naming `to`.
    expect((await t.api.put("/settings/brief", { to: { page: false } })).status).toBe(200);
    const merged = await t.api.put("/settings/brief", { to: { phone: false } });
    expect(merged.status).toBe(422);
    expect(merged.body.error).toMatchObject({ code: "SCHEDULE_INVALID", details: { field: "to" } });
    const on = await t.api.put("/settings/brief", { enabled: true, at: "08:15", to: { page: true } });
    expect(on.body).toMatchObject({ enabled: true, at: "08:15", next_at: "2026-12-07T07:15:00.000Z" });
    const audited = (await t.api.get("/audit?action=brief_settings_changed")).body.entries;
    expect(audited[0].details).toMatchObject({ enabled: true, at: "08:15", to: { phone: true, page: true }, time_zone: ZONE });
    // Off: nothing armed, nothing next.
    expect((await t.api.put("/settings/brief", { enabled: false })).body.next_at).toBeNull();
  });

  acceptance(
    SPEC,
    "the morning brief summarises turns finished, failed or stopped per conversation, open questions, queued work and each agent's limit windows since the last brief, with an /open number for each",
    async () => {
      const clock = new ManualAlarmClock(MONDAY_0600);
      const r = await rigAt(clock);
      const { t } = r;
      // The night's work: one conversation finishes twice and fails once, another is stopped,
      // a third asks a question and has a scheduled run queued behind it.
      const done = await t.conversation();
      await t.api.patch(`/chat/conversations/${done}`, { title: "Fix the flaky test" });
      const doneSub = await t.subscribe(done);
      // The agent reports a plan-limit window on its first turn (what GET /chat/agents shows). The
      // scripted agent times its reset on the real clock: aimed at Monday 10:30 Berlin on this one.
      const resetsInMs = BRIEF_AT(0) + 3 * 3_600_000 + 30_000 - Date.now();
      for (const text of [script({ limits: { status: "allowed", window: "five_hour", used: 42, resetsInMs } }, { text: "ok" }), script({ text: "ok again" }), script({ error: { code: "turn_timeout", message: "quiet" } })]) {
        const ends = doneSub.events.filter((e) => e.event.type === "turn_done" || e.event.type === "turn_error").length;
        await t.api.post(`/chat/conversations/${done}/messages`, { text });
        await doneSub.waitFor((e) => e.type === "turn_done" || e.type === "turn_error", ends);
      }
      const stopped = await t.conversation();
      await t.api.patch(`/chat/conversations/${stopped}`, { title: "Release notes" });
      const stoppedSub = await t.subscribe(stopped);
      await t.api.post(`/chat/conversations/${stopped}/messages`, { text: script({ text: "partial " }, { hang: true }) });
      await stoppedSub.waitFor((e) => e.type === "text_delta");
      await t.api.post(`/chat/conversations/${stopped}/interrupt`);
      await stoppedSub.waitFor((e) => e.type === "turn_done");
      const asking = await t.conversation();
      await t.api.patch(`/chat/conversations/${asking}`, { title: "Pick a branch" });
      const askSub = await t.subscribe(asking);
      await t.api.post(`/chat/conversations/${asking}/messages`, { text: script({ ask: { questions: [question] } }, { text: "done" }) });
      await askSub.waitFor((e) => e.type === "question");
      const s = await t.api.post("/schedules", { name: "nightly triage", prompt: "triage", when: { preset: "daily_at", at: "03:00" }, target: { conversation_id: asking } });
      expect((await t.api.post(`/schedules/${s.body.id}/run-now`)).body).toMatchObject({ queued: true });

      const on = await t.api.put("/settings/brief", { enabled: true });
      expect(on.body).toMatchObject({ enabled: true, at: "07:30", next_at: new Date(BRIEF_AT(0)).toISOString() });
      const list = await t.subscribeList();
      clock.advanceTo(BRIEF_AT(0) - 1000);
      expect(briefs(r)).toEqual([]);
      clock.advanceTo(BRIEF_AT(0));

      // The phone: one message, each conversation with its /open number as /list numbers it.
      const phone = await r.botSays(isBrief);
      const numbers = (await t.api.get("/chat/conversations?limit=10")).body.conversations.map((c: { id: string }) => c.id);
      const n = (id: string) => numbers.indexOf(id) + 1;
      expect(phone.text.split("\n")).toEqual([
        "☀️ Coffer brief — since Sun 07:30",
        "",
        "Turns",
        `• Fix the flaky test (/open ${n(done)}): 2 finished, 1 failed`,
        `• Release notes (/open ${n(stopped)}): 1 stopped`,
        "",
        "Open questions",
        `• Pick a branch (/open ${n(asking)}): Which branch? (waiting since Mon 06:00)`,
        "",
        "Queued",
        `• Pick a branch (/open ${n(asking)}): 1 waiting`,
        "",
        "Schedules",
        "• nightly triage: ran once",
        "",
        "Plan limits",
        "• Scripted (tests): five_hour 42 % used, resets Mon 10:30",
      ]);
      // The page's alert area: the same brief, with links instead of /open numbers.
      const page = (await list.waitFor((e) => (e as { type: string }).type === "owner_brief")).event as unknown as { text: string; conversations: { conversation_id: string; title: string }[] };
      expect(page.text).not.toContain("/open");
      expect(page.text).toContain("• Fix the flaky test: 2 finished, 1 failed");
      expect(page.conversations).toEqual([
        { conversation_id: done, title: "Fix the flaky test" },
        { conversation_id: stopped, title: "Release notes" },
      ]);
      const sent = (await t.api.get("/audit?action=brief_sent")).body.entries;
      expect(sent).toHaveLength(1);
      expect(sent[0].details).toMatchObject({ trigger: "timetable", quiet: false, phone_chats: 1, page: true });
      expect((await t.api.get("/settings/brief")).body).toMatchObject({ last_sent_at: new Date(BRIEF_AT(0)).toISOString(), next_at: new Date(BRIEF_AT(1)).toISOString() });

      // "Send it now": a preview since the last brief (a quiet stretch but for what still waits).
      const now = await t.api.post("/settings/brief/send");
      expect(now.status).toBe(200);
      expect(now.body).toMatchObject({ since: new Date(BRIEF_AT(0)).toISOString(), caught_up: false, delivered: { phone_chats: 1, page: true } });
      expect(now.body.text).toContain("Open questions");
      expect(now.body.text).not.toContain("Turns");
      await r.botSays((m) => isBrief(m) && m !== phone);
      // The preview does not move the daily brief.
      expect((await t.api.get("/settings/brief")).body.next_at).toBe(new Date(BRIEF_AT(1)).toISOString());

      // The machine sleeps through three mornings: one brief on wake, saying so; the next from now.
      const before = briefs(r).length;
      clock.wakeAt(BRIEF_AT(3) + 2 * 3_600_000);
      const woke = await r.botSays((m) => isBrief(m) && m.text.includes("sent on wake"));
      expect(woke.text).toContain("(Due at Tue 07:30 while the machine slept; sent on wake.)");
      expect((await t.api.get("/settings/brief")).body.next_at).toBe(new Date(BRIEF_AT(4)).toISOString());
      // Exactly one: a /status reply after it finds no second brief queued before it.
      r.say("/status");
      await r.botSays((m) => !isBrief(m) && (m.text.includes("📋") || m.text.startsWith("No conversation yet")));
      expect(briefs(r).length).toBe(before + 1);
      const caught = (await t.api.get("/audit?action=brief_sent")).body.entries;
      expect(caught[0].details).toMatchObject({ trigger: "timetable", caught_up_from: new Date(BRIEF_AT(1)).toISOString() });
      expect(Date.parse(caught[0].details.since)).toBe(BRIEF_AT(0));
    },
    60_000,
  );

  test("a brief due while the daemon was down is sent once at the next start, saying so", async () => {
    const clock = new ManualAlarmClock(MONDAY_0600);
    const r = await rigAt(clock);
    expect((await r.t.api.put("/settings/brief", { enabled: true })).status).toBe(200);
    await r.t.stop();
    // Down through Monday's and Tuesday's 07:30; started again on Tuesday at 09:00 Berlin.
    const later = new ManualAlarmClock(BRIEF_AT(1) + 90 * 60_000);
    const t = await startTestDaemon({ ...FAST_CHANNEL, ...channelOptions(r.tg), clock: later, alarms: later, timeZone: ZONE, home: r.t.home });
    try {
      // The stored due time is past: the system clock fires such an alarm at once; this one on a move.
      later.advanceTo(later.now());
      await r.tg.waitFor(() => r.tg.chat(OWNER.id).some((m) => m.from === "bot" && isBrief(m)));
      const [sent, ...more] = r.tg.chat(OWNER.id).filter((m) => m.from === "bot" && isBrief(m));
      expect(more).toEqual([]);
      expect(sent!.text).toContain("(Due at Mon 07:30 while the machine slept; sent on wake.)");
      expect((await t.api.get("/settings/brief")).body.next_at).toBe(new Date(BRIEF_AT(2)).toISOString());
    } finally {
      await t.stop();
    }
  });
});
