/**
 * Questions find the owner (issue 27): a real daemon (real SQLite, real HTTP), the scripted
 * agent, grammY against the fake Bot API on 127.0.0.1, and a ManualAlarmClock as the daemon's
 * clock, so minutes pass by hand and nothing waits in real time. The absence of a phone message
 * is proven by order: the courier delivers one chat's messages oldest first, so a /status reply
 * arriving with nothing before it means nothing had been queued for the phone.
 */
import { afterEach, describe, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { ApiClient } from "../support/http-client.js";
import { FAST_CHANNEL, startChannelRig, type ChannelRig } from "../support/channel-rig.js";
import { ManualAlarmClock } from "../support/manual-alarm-clock.js";
import { script } from "../support/scripted-agent.js";
import { startTestDaemon } from "../support/test-daemon.js";

const SPEC = "027-schedules";
const PUBLIC = "https://coffer.example.test";
const MINUTE = 60_000;
const START = Date.UTC(2026, 11, 5, 7, 0, 0);
const question = { header: "", text: "Which branch?", options: [{ label: "main", description: "" }, { label: "dev", description: "" }], multi_select: false, allow_free_text: false };

let rig: ChannelRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

const isAlert = (e: unknown) => (e as { type: string }).type === "conversation_alert";
const isWithdrawn = (e: unknown) => (e as { type: string }).type === "conversation_alert_withdrawn";

/** The phone's /status reply; every bot message before it was queued before it. */
async function phoneStatus(r: ChannelRig): Promise<{ text: string; before: string[] }> {
  const from = r.botMessages().length;
  r.say("/status");
  const reply = await r.botSays((m) => m.text.includes("📋") || m.text.startsWith("No conversation yet"));
  const all = r.botMessages();
  const at = all.indexOf(reply);
  return { text: reply.text, before: all.slice(from, at).map((m) => m.text) };
}

/** A page session's client: answers from it are "by web", as the page's are. */
async function pageClient(r: ChannelRig): Promise<ApiClient> {
  const s = (await r.t.api.post("/auth/session", {})).body as { session_id: string; secret: string };
  return new ApiClient(r.t.daemon.url, `${s.session_id}.${s.secret}`);
}

/** A paired rig on a ManualAlarmClock at START, and a desk conversation whose turn has asked `question`. */
async function asking(overrides: Parameters<typeof startChannelRig>[0] = {}) {
  const clock = new ManualAlarmClock(START);
  rig = await startChannelRig({ clock, alarms: clock, ...overrides });
  const { t } = rig;
  const list = await t.subscribeList();
  const id = await t.conversation();
  const sub = await t.subscribe(id);
  await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ ask: { questions: [question] } }, { text: " — done" }) });
  const qid = ((await sub.waitFor((e) => e.type === "question")).event as unknown as { question_id: string }).question_id;
  return { clock, r: rig, t, list, id, sub, qid };
}

describe("an open question escalates by the owner's settings", () => {
  acceptance(SPEC, "an unanswered question shows on the page at once, reaches the phone after N minutes and is reminded after M; never auto-answered, never dropped", async () => {
    const { clock, r, t, list, id, sub, qid } = await asking({ publicUrl: PUBLIC });
    expect((await t.api.get("/settings/questions")).body).toEqual({ phone_after_minutes: 5, remind_after_minutes: 60 });
    // The page at once.
    const asked = await list.waitFor(isAlert);
    expect(asked.event).toMatchObject({ type: "conversation_alert", conversation_id: id, kind: "question_asked", detail: "Which branch?", question_id: qid });

    // Not the phone yet, a second before N.
    clock.advanceTo(START + 5 * MINUTE - 1000);
    const early = await phoneStatus(r);
    expect(early.before).toEqual([]);
    // …though /status already lists it, with how to answer.
    expect(early.text).toContain("❓ Open questions (1):");
    expect(early.text).toMatch(/1\. .*: “Which branch\?” — answer it on the page/);

    // N minutes: the phone hears, with the link back.
    clock.advanceTo(START + 5 * MINUTE);
    const phoned = await r.botSays((m) => m.text.startsWith("❓ Needs you"));
    expect(phoned.text).toMatch(new RegExp(`^❓ Needs you: .+\\nWhich branch\\?\\n${PUBLIC}/chat/${id}$`));

    // M minutes: the page's alert again, marked a reminder, and "still waiting" on the phone with how to answer.
    clock.advanceTo(START + 60 * MINUTE);
    const reminded = await list.waitForCount(isAlert, 2);
    expect(reminded[1]!.event).toMatchObject({ kind: "question_asked", question_id: qid, reminder: true });
    const still = await r.botSays((m) => m.text.startsWith("⏰ Still waiting for your answer"));
    expect(still.text).toMatch(new RegExp(`^⏰ Still waiting for your answer: .+\\nWhich branch\\?\\nAnswer it on the page: ${PUBLIC}/chat/${id}$`));

    // Never auto-answered, never dropped: hours later it is still open, and nothing more is armed.
    clock.advanceTo(START + 10 * 60 * MINUTE);
    expect(clock.pending).toBe(0);
    const open = (await t.api.get("/chat/questions")).body.questions;
    expect(open).toEqual([{ conversation_id: id, title: expect.any(String), question_id: qid, questions: [question], asked_at: START }]);
    expect((await t.api.get(`/chat/conversations/${id}/questions`)).body.questions[0]).toMatchObject({ state: "open", answers: null });
    expect(list.events.filter((e) => isAlert(e.event))).toHaveLength(2);

    await t.api.post(`/chat/conversations/${id}/interrupt`);
    await sub.waitFor((e) => e.type === "turn_done");
    list.close();
    sub.close();
  });

  acceptance(SPEC, "once answered, a question's alerts and reminders are withdrawn everywhere", async () => {
    const { clock, r, t, list, id, sub, qid } = await asking({ publicUrl: PUBLIC });
    const page = await pageClient(r);
    clock.advanceTo(START + 5 * MINUTE);
    await r.botSays((m) => m.text.startsWith("❓ Needs you"));

    // Answered from the page: the page's alert is withdrawn, the phone hears who answered.
    expect((await page.post(`/chat/conversations/${id}/questions/${qid}/answer`, { answers: [{ selected: ["dev"] }] })).status).toBe(204);
    const withdrawn = await list.waitFor(isWithdrawn);
    expect(withdrawn.event).toEqual({ type: "conversation_alert_withdrawn", conversation_id: id, question_id: qid, by: "web" });
    const told = await r.botSays((m) => m.text.startsWith("☑️"));
    expect(told.text).toMatch(/^☑️ Answered from the page: .+\. Nothing more to do\.$/);
    await sub.waitFor((e) => e.type === "turn_done");

    // The reminder is gone: nothing armed, and an hour on the phone hears nothing more.
    expect(clock.pending).toBe(0);
    clock.advanceTo(START + 120 * MINUTE);
    const after = await phoneStatus(r);
    // The finished turn's own alert, and nothing about the question.
    expect(after.before.filter((text) => !text.startsWith("✔️ Finished"))).toEqual([]);
    expect(after.text).not.toContain("Open questions");
    expect(list.events.filter((e) => isAlert(e.event) && (e.event as unknown as { kind: string }).kind === "question_asked")).toHaveLength(1);
    expect((await t.api.get("/chat/questions")).body).toEqual({ questions: [] });
    list.close();
    sub.close();
  });

  test("a conversation driven from the phone: the question at once in its chat, no extra alert at N, the reminder says to reply there", async () => {
    const clock = new ManualAlarmClock(START);
    rig = await startChannelRig({ clock, alarms: clock });
    rig.say(script({ ask: { questions: [question] } }, { text: " — done" }));
    const shown = await rig.botSays((m) => m.text.startsWith("❓ Which branch?"));
    expect(shown.buttons?.length).toBe(2);
    clock.advanceTo(START + 5 * MINUTE);
    clock.advanceTo(START + 60 * MINUTE);
    const still = await rig.botSays((m) => m.text.startsWith("⏰ Still waiting for your answer"));
    expect(still.text).toMatch(/\nWhich branch\?\nReply here to answer \(or tap an option on the question above\)\.$/);
    // Between the question and the reminder, no "Needs you" alert: the chat already had the question.
    const all = rig.botMessages();
    // (The live progress message is silent and may open meanwhile on its own timer: not an alert.)
    expect(all.slice(all.indexOf(shown) + 1, all.indexOf(still)).filter((m) => !m.silent).map((m) => m.text)).toEqual([]);
    rig.say("2");
    await rig.botSays((m) => m.text.includes("— done"));
    expect(clock.pending).toBe(0);
    // Answered here: no "☑️ Answered" line about itself.
    expect(rig.botMessages().filter((m) => m.text.startsWith("☑️"))).toEqual([]);
  });

  test("answered before N minutes: the phone never hears of it, not even the withdrawal", async () => {
    const { clock, r, t, list, id, sub, qid } = await asking();
    list.close();
    clock.advanceTo(START + 4 * MINUTE);
    expect((await t.api.post(`/chat/conversations/${id}/questions/${qid}/answer`, { answers: [{ selected: ["main"] }] })).status).toBe(204);
    await sub.waitFor((e) => e.type === "turn_done");
    expect(clock.pending).toBe(0);
    clock.advanceTo(START + 120 * MINUTE);
    // The finished turn's own alert is the only thing the phone got.
    const status = await phoneStatus(r);
    expect(status.before.filter((text) => !text.startsWith("✔️ Finished"))).toEqual([]);
    sub.close();
  });

  test("settings: validated (negative or fractional minutes are refused with VALIDATION_FAILED), partial, audited", async () => {
    const clock = new ManualAlarmClock(START);
    rig = await startChannelRig({ clock, alarms: clock }, { pair: false });
    const { t } = rig;
    for (const body of [{ phone_after_minutes: -1 }, { remind_after_minutes: -5 }, { remind_after_minutes: 0 }, { phone_after_minutes: 1.5 }, { phone_after_minutes: "5" }]) {
      const res = await t.api.put("/settings/questions", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe("VALIDATION_FAILED");
    }
    expect((await t.api.get("/settings/questions")).body).toEqual({ phone_after_minutes: 5, remind_after_minutes: 60 });
    expect((await t.api.put("/settings/questions", { remind_after_minutes: null })).body).toEqual({ phone_after_minutes: 5, remind_after_minutes: null });
    expect((await t.api.put("/settings/questions", { phone_after_minutes: 0 })).body).toEqual({ phone_after_minutes: 0, remind_after_minutes: null });
    const audit = (await t.api.get("/audit?action=question_settings_changed")).body.entries;
    expect(audit).toHaveLength(2);
  });

  test("a restart in between: the turn ends with the daemon, its question closes and nothing stays armed or fires later", async () => {
    const { clock, r, t, list, sub } = await asking();
    list.close();
    clock.advanceTo(START + 2 * MINUTE);
    sub.close();
    await t.stop();
    // The question died with its turn (no question outlives its turn: docs/decisions.md), so its
    // escalation went with it: nothing is left on the clock to fire into a daemon that is gone.
    expect(clock.pending).toBe(0);

    // The same data dir, channel and clock again: past N and M, the phone hears no question.
    const again = await startTestDaemon({ ...FAST_CHANNEL, home: t.home, clock, alarms: clock, telegram: { apiRoot: r.tg.apiRoot, pollTimeoutSeconds: 5 } });
    try {
      clock.advanceTo(START + 120 * MINUTE);
      const status = await phoneStatus(r);
      expect(status.before.filter((text) => /^(❓|⏰)/.test(text))).toEqual([]);
      expect(status.text).not.toContain("Open questions");
      expect((await again.api.get("/chat/questions")).body).toEqual({ questions: [] });
      expect(clock.pending).toBe(0);
    } finally {
      await again.stop();
    }
  });
});
