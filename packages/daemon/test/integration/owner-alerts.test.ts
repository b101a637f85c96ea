/**
 * Alerts (issue 14, part 5) and the phone's view of retries and holds, end to end: a real
 * daemon (real SQLite, real HTTP), the scripted agent, and the fake Bot API on 127.0.0.1.
 * Every wait is on a published signal (the list stream, the bus, the fake's chat).
 */
import { afterEach, describe, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { OWNER, startChannelRig, type ChannelRig } from "../support/channel-rig.js";
import { script } from "../support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const SPEC = "014-owner-in-the-loop";
const PUBLIC = "https://coffer.example.test";
const question = { header: "", text: "Which branch?", options: [{ label: "main", description: "" }], multi_select: false, allow_free_text: false };

let rig: ChannelRig | null = null;
let daemon: TestDaemon | null = null;
afterEach(async () => {
  await rig?.close();
  await daemon?.close();
  rig = null;
  daemon = null;
});

/** The list stream's alerts, as the page receives them. */
const isAlert = (e: unknown) => (e as { type: string }).type === "conversation_alert";

describe("alerts on the conversation-list stream", () => {
  acceptance(SPEC, "a finished, failed or asking turn raises an alert on the list stream; a turn the owner stopped does not", async () => {
    daemon = await startTestDaemon();
    const t = daemon;
    const list = await t.subscribeList();
    const id = await t.conversation();
    const sub = await t.subscribe(id);

    // Stopped by the owner: no alert. Proven by the next alert being the finished turn's.
    await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "part" }, { hang: true }) });
    await sub.waitFor((e) => e.type === "text_delta");
    await t.api.post(`/chat/conversations/${id}/interrupt`);
    await sub.waitFor((e) => e.type === "turn_done");

    await t.api.post(`/chat/conversations/${id}/messages`, { text: "hello" });
    const finished = await list.waitFor(isAlert);
    expect(finished.event).toEqual({ type: "conversation_alert", conversation_id: id, title: expect.any(String), kind: "turn_finished", detail: null });

    await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ error: { code: "turn_timeout", message: "the agent went quiet" } }) });
    const failed = await list.waitForCount(isAlert, 2);
    expect(failed[1]!.event).toMatchObject({ kind: "turn_failed", detail: "the agent went quiet" });

    await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ ask: { questions: [question] } }) });
    const asked = await list.waitForCount(isAlert, 3);
    expect(asked[2]!.event).toMatchObject({ kind: "question_asked", detail: "Which branch?" });
    expect(list.events.filter((e) => isAlert(e.event))).toHaveLength(3);
    await t.api.post(`/chat/conversations/${id}/interrupt`);
    list.close();
    sub.close();
  });

  acceptance(SPEC, "alert settings decide which events alert, per surface; a change is audited", async () => {
    daemon = await startTestDaemon();
    const t = daemon;
    expect((await t.api.get("/settings/alerts")).body).toEqual({
      browser: { turn_finished: true, turn_failed: true, question_asked: true },
      telegram: { turn_finished: true, turn_failed: true, question_asked: true },
    });
    const put = await t.api.put("/settings/alerts", { browser: { turn_finished: false } });
    expect(put.status).toBe(200);
    expect(put.body.browser).toEqual({ turn_finished: false, turn_failed: true, question_asked: true });
    expect((await t.api.put("/settings/alerts", { browser: { turn_finished: "yes" } })).status).toBe(422);
    const audit = (await t.api.get("/audit?action=alert_settings_changed")).body;
    expect(audit.entries).toHaveLength(1);
    expect(audit.entries[0].details).toMatchObject({ browser: { turn_finished: false } });

    const list = await t.subscribeList();
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await t.api.post(`/chat/conversations/${id}/messages`, { text: "quietly done" });
    await sub.waitFor((e) => e.type === "turn_done");
    await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ error: { code: "turn_timeout", message: "quiet" } }) });
    await list.waitFor(isAlert);
    // The finished turn came first and raised nothing: the only alert is the failure.
    expect(list.events.filter((e) => isAlert(e.event)).map((e) => (e.event as unknown as { kind: string }).kind)).toEqual(["turn_failed"]);
    list.close();
    sub.close();
  });
});

describe("alerts on the phone", () => {
  acceptance(SPEC, "Telegram alerts the paired owner with a link back for a conversation not bound to their chat; a bound one gets only its relay", async () => {
    rig = await startChannelRig({ publicUrl: PUBLIC });
    const { t } = rig;
    // Questions reach the phone at once here (issue 27's delay is question-escalation.test.ts's).
    expect((await t.api.put("/settings/questions", { phone_after_minutes: 0 })).status).toBe(200);
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await t.api.post(`/chat/conversations/${id}/messages`, { text: "desk work" });
    const finished = await rig.botSays((m) => m.text.startsWith("✔️ Finished: desk work"));
    expect(finished.text).toBe(`✔️ Finished: desk work\n${PUBLIC}/chat/${id}`);

    await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ ask: { questions: [question] } }) });
    const asked = await rig.botSays((m) => m.text.startsWith("❓ Needs you: desk work"));
    expect(asked.text).toBe(`❓ Needs you: desk work\nWhich branch?\n${PUBLIC}/chat/${id}`);
    await t.api.post(`/chat/conversations/${id}/interrupt`);
    await sub.waitFor((e) => e.type === "turn_done");

    // The telegram surface off for finished turns: the next finished turn is silent, a failure is not.
    await t.api.put("/settings/alerts", { telegram: { turn_finished: false } });
    await t.api.post(`/chat/conversations/${id}/messages`, { text: "second" });
    await sub.waitForCount((e) => e.type === "turn_done", 2);
    await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ error: { code: "turn_timeout", message: "went quiet" } }) });
    await rig.botSays((m) => m.text.startsWith("⚠️ Failed: desk work\nwent quiet"));
    // Delivered in order: had the second finished turn alerted, it would sit before the failure.
    expect(rig.botMessages().filter((m) => m.text.startsWith("✔️ Finished"))).toHaveLength(1);

    // A phone conversation (bound to the owner's chat): the relay answers, no extra alert.
    rig.say("from the phone");
    await rig.botSays((m) => m.text.includes("from the phone") && !m.text.startsWith("✔️"));
    await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ error: { code: "turn_timeout", message: "again" } }) });
    await rig.botSays((m) => m.text.startsWith("⚠️ Failed: desk work\nagain"));
    expect(rig.botMessages().filter((m) => /^(✔️|⚠️|❓) /.test(m.text) && !m.text.includes("desk work"))).toEqual([]);
    sub.close();
  });

  test("without COFFER_PUBLIC_URL the link is the daemon's own URL", async () => {
    rig = await startChannelRig();
    const { t } = rig;
    const id = await t.conversation();
    await t.api.post(`/chat/conversations/${id}/messages`, { text: "local link" });
    const finished = await rig.botSays((m) => m.text.startsWith("✔️ Finished: local link"));
    expect(finished.text.split("\n").at(-1)).toBe(`${t.daemon.url}/chat/${id}`);
  });
});

describe("the phone sees retries and holds", () => {
  acceptance(SPEC, "the phone's progress message shows the agent retrying, and the bound chat hears when its queue parks on a plan limit and resumes", async () => {
    rig = await startChannelRig({ channelTimings: { backoffMs: [20], editIntervalMs: 200 } });
    const { tg } = rig;
    // The agent's cap (10) is further than the daemon's give-up (6): the line names the give-up.
    rig.say(script({ retry: { attempt: 1, max: 10, message: "connection refused" } }, { hang: true }));
    const progress = await rig.botSays((m) => m.text.startsWith("🔁 Retrying — attempt 1 of 6: connection refused"));
    expect(progress.silent).toBe(true);
    rig.say("/stop");
    await tg.waitFor(() => !rig!.botMessages().some((m) => m.text.startsWith("🔁")));

    const limits = { limits: { status: "rejected" as const, window: "five_hour", used: 100, resetsInMs: 1500 } };
    rig.say(script(limits, { error: { code: "plan_limit", message: "plan limit reached" } }));
    const parked = await rig.botSays((m) => m.text.startsWith("⏸ Paused until "));
    expect(parked.text).toMatch(/^⏸ Paused until \d\d:\d\d — plan limit\. The queue resumes by itself then/);
    const resumed = await rig.botSays((m) => m.text === "▶️ The plan limit has reset: the queue runs again.");
    expect(resumed.messageId).toBeGreaterThan(parked.messageId);
    void OWNER;
  });
});
