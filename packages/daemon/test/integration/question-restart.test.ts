/**
 * A question cannot outlive a restart (issue 27, "never dropped"): it lives with its turn, and a
 * stopped daemon ends the turn. So nothing is re-armed; instead the owner is told once, on the
 * phone and the page, that the question was lost with its turn. Real daemon, real SQLite, the
 * scripted agent, grammY against the fake Bot API, and a ManualAlarmClock moved by hand.
 */
import { afterEach, describe, expect, test } from "vitest";
import { FAST_CHANNEL, OWNER, channelOptions, startChannelRig } from "../support/channel-rig.js";
import type { FakeTelegram } from "../fakes/fake-telegram.js";
import { ManualAlarmClock } from "../support/manual-alarm-clock.js";
import { script } from "../support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const MINUTE = 60_000;
const START = Date.UTC(2026, 11, 5, 7, 0, 0);
const PUBLIC = "https://coffer.example.test";
const question = { header: "", text: "Which branch?", options: [{ label: "main", description: "" }], multi_select: false, allow_free_text: false };

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

const lostLines = (tg: FakeTelegram) => tg.chat(OWNER.id).filter((m) => m.from === "bot" && m.text.startsWith("⚠️ Lost to a restart"));

async function restart(tg: FakeTelegram, home: string, clock: ManualAlarmClock): Promise<TestDaemon> {
  const t = await startTestDaemon({ ...FAST_CHANNEL, ...channelOptions(tg), clock, alarms: clock, home, publicUrl: PUBLIC });
  open.push({ close: () => t.stop() });
  return t;
}

describe("an open question across a restart", () => {
  test("the owner is told once, on the phone and the page, that the question was lost with its turn; nothing escalates after", async () => {
    const clock = new ManualAlarmClock(START);
    const rig = await startChannelRig({ clock, alarms: clock, publicUrl: PUBLIC });
    const { t, tg } = rig;
    open.push({ close: () => tg.close() });
    const id = await t.conversation();
    await t.api.patch(`/chat/conversations/${id}`, { title: "Pick a branch" });
    const sub = await t.subscribe(id);
    await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ ask: { questions: [question] } }, { text: "done" }) });
    await sub.waitFor((e) => e.type === "question");
    clock.advanceTo(START + 5 * MINUTE);
    await rig.botSays((m) => m.text.startsWith("❓ Needs you"));
    sub.close();
    // The daemon stops while the question escalates: no "no longer waiting" line on the way down.
    await t.stop();

    const again = await restart(tg, t.home, clock);
    const list = await again.subscribeList();
    const alert = await list.waitFor((e) => (e as { type: string }).type === "conversation_alert");
    expect(alert.event).toMatchObject({ conversation_id: id, title: "Pick a branch", kind: "turn_failed" });
    expect((alert.event as unknown as { detail: string }).detail).toBe(
      "Coffer restarted while the agent waited on “Which branch?”: the question ended with its turn and cannot be answered. Send the request again to continue.",
    );
    await tg.waitFor(() => lostLines(tg).length > 0);
    expect(lostLines(tg).map((m) => m.text)).toEqual([
      `⚠️ Lost to a restart: Pick a branch\nCoffer restarted while the agent waited on “Which branch?”: the question ended with its turn and cannot be answered. Send the request again to continue.\n${PUBLIC}/chat/${id}`,
    ]);
    expect(tg.chat(OWNER.id).some((m) => m.from === "bot" && m.text.startsWith("☑️ No longer waiting"))).toBe(false);
    expect((await again.api.get("/chat/questions")).body.questions).toEqual([]);
    // Nothing re-armed: the hour's reminder never comes.
    clock.advanceTo(START + 120 * MINUTE);
    list.close();
    await again.stop();
    open.pop();

    // Once: a second restart tells nothing more (the /status reply arrives with nothing before it).
    const third = await restart(tg, t.home, clock);
    const from = tg.chat(OWNER.id).length;
    tg.userSays({ chatId: OWNER.id, from: OWNER, text: "/status" });
    await tg.waitFor(() => tg.chat(OWNER.id).slice(from).some((m) => m.from === "bot"));
    const after = tg.chat(OWNER.id).slice(from).filter((m) => m.from === "bot");
    expect(after[0]!.text).not.toMatch(/Lost to a restart|still waiting|Needs you/);
    expect(lostLines(tg)).toHaveLength(1);
    expect(third).toBeTruthy();
  });
});
