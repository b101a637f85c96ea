/**
 * Forum topics as conversations (issue 26): a Telegram forum group that holds only the paired
 * owner and the bot is served, each topic its own bound conversation; /new and /open in the
 * group's General topic open topics; anyone else in the group is ignored and counted; a group
 * with a third member is refused. A real daemon against the fake Bot API, the scripted agent.
 */
import { afterEach, describe, expect, test } from "vitest";
import type { FakeChatMessage } from "../fakes/fake-telegram.js";
import { acceptance } from "../support/acceptance.js";
import { OWNER, STRANGER, startChannelRig, type ChannelRig } from "../support/channel-rig.js";
import { ManualAlarmClock } from "../support/manual-alarm-clock.js";
import { script } from "../support/scripted-agent.js";

const SPEC = "026-second-platform";
const GROUP = -1001234567;
const CROWDED = "I only work in a group with just you and me.";

let rig: ChannelRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

/** The owner (or `from`) writes in the group: in a topic, or in General when `threadId` is null. */
function inGroup(r: ChannelRig, threadId: number | null, text: string, from: { id: number; first_name: string } = OWNER, chatId = GROUP): number {
  return r.tg.userSays({ chatId, from, text, chatType: "supergroup", ...(threadId !== null ? { threadId } : {}) }).update_id;
}

/** The bot's messages in the group's topic (null: General). */
function botIn(r: ChannelRig, threadId: number | null, chatId = GROUP): FakeChatMessage[] {
  return r.tg.chat(chatId).filter((m) => m.from === "bot" && m.threadId === threadId);
}

async function botSaysIn(r: ChannelRig, threadId: number | null, match: (m: FakeChatMessage) => boolean, chatId = GROUP): Promise<FakeChatMessage> {
  await r.tg.waitFor(() => botIn(r, threadId, chatId).some(match));
  return botIn(r, threadId, chatId).find(match)!;
}

/** The topic the bot opened last in the group. */
function newestTopic(r: ChannelRig): number {
  return [...r.tg.group(GROUP)!.topics.keys()].at(-1)!;
}

/** /new in General: a topic opens, bound to a fresh conversation; its thread id. */
async function newTopic(r: ChannelRig): Promise<number> {
  const before = r.tg.group(GROUP)!.topics.size;
  inGroup(r, null, "/new");
  await r.tg.waitFor((f) => f.group(GROUP)!.topics.size === before + 1);
  const topic = newestTopic(r);
  await botSaysIn(r, topic, (m) => m.text.startsWith("🆕 New conversation with"));
  return topic;
}

async function servedGroup(r: ChannelRig): Promise<void> {
  r.tg.addGroup({ chatId: GROUP, isForum: true, members: [OWNER] });
  await botSaysIn(r, null, (m) => m.text.startsWith("Ready: each topic"));
}

describe("forum topics as conversations", () => {
  acceptance(SPEC, "each topic of a forum group holding only the owner and the bot (or thread of a chosen Discord channel) is its own bound conversation; /new opens a topic; anyone else is ignored and counted", async () => {
    rig = await startChannelRig();
    const r = rig;
    const { t, tg } = r;
    await servedGroup(r);
    expect(tg.calls("getChatMemberCount", { ok: true }).length).toBeGreaterThan(0);

    const a = await newTopic(r);
    await botSaysIn(r, null, (m) => m.text.startsWith("🆕 Opened a new topic"));
    const b = await newTopic(r);
    expect(a).not.toBe(b);
    expect(tg.group(GROUP)!.topics.get(a)).toBe("New conversation");

    // Topic A's turn holds at a gate while topic B's runs to its end: two conversations at once.
    const list = async () => (await t.api.get("/chat/conversations")).body.conversations as { id: string; channel_binding: { chat_id: string; thread_id?: string } | null }[];
    const convA = (await list()).find((c) => c.channel_binding?.thread_id === String(a))!;
    const subA = await t.subscribe(convA.id);
    inGroup(r, a, script({ text: "alpha working" }, { gate: "topic-a" }, { text: " alpha done" }));
    await subA.waitFor((e) => e.type === "text_delta");
    inGroup(r, b, "beta question");
    const beta = await botSaysIn(r, b, (m) => m.text.includes("beta question"));
    expect(beta.threadId).toBe(b);
    // Nothing of B's landed in A, and A is still working.
    expect(botIn(r, a).some((m) => m.text.includes("beta"))).toBe(false);
    t.scripted.gates.open("topic-a");
    await botSaysIn(r, a, (m) => m.text.includes("alpha done"));
    subA.close();
    expect(botIn(r, b).some((m) => m.text.includes("alpha"))).toBe(false);
    expect(botIn(r, null).some((m) => m.text.includes("alpha") || m.text.includes("beta"))).toBe(false);

    // Two conversations, each bound to its own topic of the group.
    const bound = (await list()).filter((c) => c.channel_binding?.chat_id === String(GROUP));
    expect(bound.map((c) => c.channel_binding!.thread_id).sort()).toEqual([String(a), String(b)].sort());
    // The topic took its conversation's title from the first message.
    await tg.waitFor((f) => f.group(GROUP)!.topics.get(b) === "beta question");

    // /status in a topic speaks of that topic's conversation.
    inGroup(r, b, "/status");
    await botSaysIn(r, b, (m) => m.text.startsWith("📋 beta question"));

    // A stranger writing in the group (who slipped in unseen) is ignored and counted: no reply, no turn.
    const strangersBefore = (await t.api.get(`/channels/${r.channelId}`)).body.counts.strangers_ignored as number;
    const turns = t.scripted.turns.length;
    const sent = botIn(r, a).length;
    await r.handled(inGroup(r, a, "stranger here", STRANGER));
    expect(t.scripted.turns.length).toBe(turns);
    expect(botIn(r, a).length).toBe(sent);
    expect((await t.api.get(`/channels/${r.channelId}`)).body.counts.strangers_ignored).toBe(strangersBefore + 1);
    expect(JSON.stringify((await t.api.get("/audit")).body)).not.toContain("stranger here");

    // When the stranger shows up as a member, the group is refused in one line and the owner's messages stop reaching the agent.
    tg.userJoins(GROUP, STRANGER);
    await botSaysIn(r, null, (m) => m.text === CROWDED);
    await r.handled(inGroup(r, a, "anyone there?"));
    await r.handled(inGroup(r, null, "hello?"));
    expect(t.scripted.turns.length).toBe(turns);
    expect(botIn(r, null).filter((m) => m.text === CROWDED)).toHaveLength(1);

    // The DM keeps working as before.
    r.say("from the dm");
    await r.botSays((m) => m.text.includes("from the dm"));
  });

  test("a group with a third member is refused; /open in General continues a conversation in a topic of its own", async () => {
    rig = await startChannelRig();
    const r = rig;
    const { t, tg } = r;
    // Three people: one line, and nothing reaches the agent.
    const CROWD = -1009999;
    tg.addGroup({ chatId: CROWD, isForum: true, members: [OWNER, STRANGER] });
    await botSaysIn(r, null, (m) => m.text === CROWDED, CROWD);
    await r.handled(inGroup(r, null, "hi there", OWNER, CROWD));
    expect(t.scripted.turns.length).toBe(0);
    expect((await t.api.get("/chat/conversations")).body.conversations).toHaveLength(0);

    // A conversation started in the DM, continued from General in a topic of its own.
    r.say("dm talk");
    await r.botSays((m) => m.text.includes("dm talk"));
    await servedGroup(r);
    inGroup(r, null, "/list");
    await botSaysIn(r, null, (m) => m.text.startsWith("1. dm talk"));
    inGroup(r, null, "/open 1");
    await botSaysIn(r, null, (m) => m.text === "Opened “dm talk” in a topic of its own.");
    const topic = newestTopic(r);
    expect(tg.group(GROUP)!.topics.get(topic)).toBe("dm talk");
    await botSaysIn(r, topic, (m) => m.text.startsWith("Continuing “dm talk”"));
    inGroup(r, topic, "more talk");
    await botSaysIn(r, topic, (m) => m.text.includes("more talk"));
    const convs = (await t.api.get("/chat/conversations")).body.conversations as { channel_binding: { thread_id?: string } | null }[];
    expect(convs).toHaveLength(1);
    expect(convs[0]!.channel_binding!.thread_id).toBe(String(topic));
    expect(convs[0]!.channel_binding).toMatchObject({ thread_noun: "topic", place_noun: "group" });
    // Opening it again from General points at its topic instead of opening a second one.
    inGroup(r, null, "/open 1");
    await botSaysIn(r, null, (m) => m.text.includes("already has its topic"));
    expect(tg.group(GROUP)!.topics.size).toBe(1);
  });

  test("a question asked in one topic is answered in that topic; another topic's message goes to its own conversation", async () => {
    rig = await startChannelRig();
    const r = rig;
    await servedGroup(r);
    const a = await newTopic(r);
    const b = await newTopic(r);
    const question = { header: "Deploy", text: "Where to?", options: [{ label: "staging", description: "" }, { label: "prod", description: "" }], multi_select: false, allow_free_text: true };
    inGroup(r, a, script({ ask: { questions: [question] } }, { text: " — done" }));
    await botSaysIn(r, a, (m) => m.text.startsWith("❓ [Deploy] Where to?"));
    // "2" in topic B is B's own message: not an answer, and A's question is not shown again there.
    inGroup(r, b, "2");
    await botSaysIn(r, b, (m) => m.text.includes("2") && !m.text.startsWith("🆕"));
    expect(botIn(r, b).some((m) => m.text.includes("Still waiting"))).toBe(false);
    expect(botIn(r, a).some((m) => m.text.includes("— done"))).toBe(false);
    // "2" in topic A answers A's question.
    inGroup(r, a, "2");
    const done = await botSaysIn(r, a, (m) => m.text.includes("— done"));
    expect(done.text).toContain('answers: [{"selected":["prod"]}]');
  });

  // The defect: a topic-bound conversation's question also raised "Needs you" in the private chat,
  // and its reminder went there too, away from the topic where the question waits.
  test("a question in a topic: no alert in the private chat; the reminder comes in the topic, beside the question", async () => {
    const clock = new ManualAlarmClock(Date.UTC(2026, 11, 5, 7, 0, 0));
    rig = await startChannelRig({ clock, alarms: clock });
    const r = rig;
    await servedGroup(r);
    const a = await newTopic(r);
    const question = { header: "", text: "Which branch?", options: [{ label: "main", description: "" }, { label: "dev", description: "" }], multi_select: false, allow_free_text: false };
    const privateBefore = r.botMessages().length;
    inGroup(r, a, script({ ask: { questions: [question] } }, { text: " — done" }));
    await botSaysIn(r, a, (m) => m.text.startsWith("❓ Which branch?"));
    clock.advanceTo(clock.now() + 5 * 60_000);
    clock.advanceTo(clock.now() + 60 * 60_000);
    const still = await botSaysIn(r, a, (m) => m.text.startsWith("⏰ Still waiting for your answer"));
    expect(still.text).toMatch(/Reply here to answer \(or tap an option on the question above\)\.$/);
    // The private chat heard nothing of it: /status there answers with nothing queued before it.
    r.say("/status");
    const status = await r.botSays((m) => m.text.includes("📋") || m.text.startsWith("No conversation yet"));
    const privateNow = r.botMessages();
    expect(privateNow.slice(privateBefore, privateNow.indexOf(status)).map((m) => m.text)).toEqual([]);
    inGroup(r, a, "2");
    await botSaysIn(r, a, (m) => m.text.includes("— done"));
  });

  test("re-pairing from another account moves a topic's running turn into the new private chat", async () => {
    rig = await startChannelRig();
    const r = rig;
    const { t, tg } = r;
    await servedGroup(r);
    const a = await newTopic(r);
    const convA = ((await t.api.get("/chat/conversations")).body.conversations as { id: string }[])[0]!;
    const sub = await t.subscribe(convA.id);
    inGroup(r, a, script({ text: "moving" }, { gate: "move" }, { text: " moved done" }));
    await sub.waitFor((e) => e.type === "text_delta");
    const NEW = { id: 888, first_name: "Ada" };
    const { code } = (await t.api.post(`/channels/${r.channelId}/pairing-code`)).body;
    tg.userSays({ chatId: NEW.id, from: NEW, text: code });
    await tg.waitFor((f) => f.chat(NEW.id).some((m) => m.from === "bot" && m.text.startsWith("Paired.")));
    t.scripted.gates.open("move");
    await tg.waitFor((f) => f.chat(NEW.id).some((m) => m.from === "bot" && m.text.includes("moved done")));
    expect(botIn(r, a).some((m) => m.text.includes("moved done"))).toBe(false);
    sub.close();
  });

  test("a group without Topics is told how to turn them on, once, and is not served", async () => {
    rig = await startChannelRig();
    const r = rig;
    const PLAIN = -1005555;
    r.tg.addGroup({ chatId: PLAIN, isForum: false, members: [OWNER] });
    await botSaysIn(r, null, (m) => m.text.startsWith("Turn on Topics"), PLAIN);
    await r.handled(inGroup(r, null, "hello", OWNER, PLAIN));
    expect(r.t.scripted.turns.length).toBe(0);
    expect(botIn(r, null, PLAIN)).toHaveLength(1);
  });
});
