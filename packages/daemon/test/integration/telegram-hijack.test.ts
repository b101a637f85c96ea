/**
 * Issue 21 (hardening II), the phone channel: each test performs an attack on the Telegram
 * channel (a real daemon, real SQLite, our fake Bot API on 127.0.0.1) and asserts it fails.
 * Every wait is on a published signal: the fake's calls and chats, the live bus, an offset.
 */
import { afterEach, describe, expect } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { OWNER, STRANGER, startChannelRig, type ChannelRig } from "../support/channel-rig.js";
import { script } from "../support/scripted-agent.js";

const SPEC = "021-hardening";
/** The owner's new phone (another Telegram account and chat) pairing after the first one. */
const NEW_PHONE = { id: 888, first_name: "Bob" };
/** A question with options the phone answers by number. */
const QUESTION = {
  header: "Deploy",
  text: "Where to?",
  options: [
    { label: "staging", description: "safe" },
    { label: "prod", description: "" },
  ],
  multi_select: false,
  allow_free_text: false,
};

let rig: ChannelRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

const botIn = (r: ChannelRig, chatId: number) => r.tg.chat(chatId).filter((m) => m.from === "bot");
const channelOf = async (r: ChannelRig) => (await r.t.api.get(`/channels/${r.channelId}`)).body;
const freshCode = async (r: ChannelRig) => (await r.t.api.post(`/channels/${r.channelId}/pairing-code`)).body.code as string;

describe("hardening: pairing", () => {
  acceptance(SPEC, "a stranger's wrong pairing guesses cannot void the owner's code; a voided code is shown as such", async () => {
    rig = await startChannelRig({}, { pair: false });
    const { tg } = rig;
    const code = await freshCode(rig);
    const wrong = code === "ABCDEFGH" ? "HGFEDCBA" : "ABCDEFGH";
    // The attack: a stranger spends more than the old per-code budget of wrong guesses.
    let last = 0;
    for (let i = 0; i < 12; i++) last = tg.userSays({ chatId: STRANGER.id, from: STRANGER, text: wrong }).update_id;
    await rig.handled(last);
    // The owner's right code still pairs.
    rig.say(code);
    await rig.botSays((m) => m.text.startsWith("Paired."));
    const paired = await channelOf(rig);
    expect(paired.owner.name).toBe(OWNER.first_name);
    expect(paired.pairing).toBeNull();

    // A code guessed at by too many senders is voided — and the page and CLI say so, as does a
    // later attempt with it, instead of ignoring it in silence.
    const next = await freshCode(rig);
    const guessers = Array.from({ length: 1000 }, (_, i) => ({ chatId: 10_000 + i, from: { id: 10_000 + i, first_name: "X" }, text: wrong }));
    for (let i = 0; i < guessers.length; i += 100) last = tg.userSaysAll(guessers.slice(i, i + 100)).at(-1)!.update_id;
    await rig.handled(last);
    expect((await channelOf(rig)).pairing).toMatchObject({ state: "voided", refused_at: null });
    last = tg.userSays({ chatId: NEW_PHONE.id, from: NEW_PHONE, text: next }).update_id;
    await rig.handled(last);
    const voided = await channelOf(rig);
    expect(voided.owner.name).toBe(OWNER.first_name);
    expect(voided.pairing.state).toBe("voided");
    expect(voided.pairing.refused_at).not.toBeNull();
    expect(JSON.stringify(voided)).not.toContain(next);
    expect(botIn(rig, NEW_PHONE.id)).toEqual([]);
  }, 30_000);
});

describe("hardening: re-pairing", () => {
  acceptance(SPEC, "re-pairing moves the old chat's conversations off it, drops its outbox, questions and list, and tells the owner what moved", async () => {
    rig = await startChannelRig();
    const { t, tg } = rig;
    // Chat A (the first phone) has two bound conversations, a /list, and a question open in the second.
    rig.say("first from the phone");
    await rig.botSays((m) => m.text.includes("echo: first from the phone"));
    const [x] = (await t.api.get("/chat/conversations")).body.conversations;
    rig.say("/new");
    await rig.botSays((m) => m.text.startsWith("🆕"));
    rig.say(script({ ask: { questions: [QUESTION] } }, { text: " — answered" }));
    await rig.botSays((m) => m.text.startsWith("❓ [Deploy]"));
    const y = (await t.api.get("/chat/conversations")).body.conversations.find((c: { id: string }) => c.id !== x.id);
    rig.say("/list");
    await rig.botSays((m) => m.text.includes("/open <n>"));
    // Deliveries stall, so the old chat's outbox holds a desktop message's mirror.
    tg.failAll("sendMessage", { status: 502, description: "Bad Gateway" });
    const subX = await t.subscribe(x.id);
    await t.api.post(`/chat/conversations/${x.id}/messages`, { text: "typed before the move" });
    await subX.waitFor((e) => e.type === "turn_done");
    // The mirror and its answer wait among them (the relay queues both before the bus publishes turn_done).
    const stuck = (await channelOf(rig)).counts.outbox as number;
    expect(stuck).toBeGreaterThanOrEqual(2);

    // The owner re-pairs from another phone (chat B).
    const code = await freshCode(rig);
    const pairedAt = tg.userSays({ chatId: NEW_PHONE.id, from: NEW_PHONE, text: code }).update_id;
    await rig.handled(pairedAt);
    const seenInA = botIn(rig, OWNER.id).length;
    tg.heal();
    const hello = await tg.waitFor((f) => f.chat(NEW_PHONE.id).some((m) => m.text.startsWith("Paired."))).then(() =>
      botIn(rig!, NEW_PHONE.id).find((m) => m.text.startsWith("Paired."))!,
    );

    // Typing on the desktop, and answering the open question there, reach B and never A.
    await t.api.post(`/chat/conversations/${x.id}/messages`, { text: "typed after the move" });
    await subX.waitForCount((e) => e.type === "turn_done", 2);
    const mirrored = (chat: number) => botIn(rig!, chat).some((m) => m.text === "(from Coffer) typed after the move");
    await tg.waitFor(() => mirrored(NEW_PHONE.id) || mirrored(OWNER.id));
    expect(mirrored(OWNER.id)).toBe(false);
    const qid = (await t.api.get(`/chat/conversations/${y.id}/questions`)).body.questions[0].question_id as string;
    expect((await t.api.post(`/chat/conversations/${y.id}/questions/${qid}/answer`, { answers: [{ selected: ["prod"] }], by: "web" })).status).toBe(204);
    await tg.waitFor((f) => f.chat(NEW_PHONE.id).some((m) => m.text.includes("— answered")));
    // The old phone's "1" is a stranger's now, not an answer or a /list pick.
    await rig.handled(rig.say("/open 1"));
    expect(botIn(rig, OWNER.id)).toHaveLength(seenInA);
    expect(botIn(rig, OWNER.id).some((m) => m.text.includes("typed before the move") || m.text.includes("typed after the move"))).toBe(false);

    // B is told what moved.
    expect(hello.text).toContain("Moved here from the previously paired chat: 2 conversations");
    expect(hello.text).toContain((await t.api.get(`/chat/conversations/${x.id}`)).body.title);
    expect(hello.text).toContain(`${stuck} undelivered messages were dropped`);
    const channel = await channelOf(rig);
    expect(channel.counts.outbox).toBe(0);
    for (const id of [x.id, y.id]) {
      expect((await t.api.get(`/chat/conversations/${id}`)).body.channel_binding).toMatchObject({ chat_id: String(NEW_PHONE.id) });
    }
    const audit = (await t.api.get("/audit?action=channel_paired")).body.entries.find((e: { details: { replaced: boolean } }) => e.details.replaced);
    expect(audit.details).toMatchObject({ replaced: true, moved_conversations: expect.arrayContaining([x.id, y.id]), dropped_outbox: stuck });
    // The command menu moved with the owner: B has it, A and the default scope do not.
    await tg.waitFor((f) => f.commandsIn(`chat:${NEW_PHONE.id}`).length > 0 && f.commandsIn(`chat:${OWNER.id}`).length === 0);
    subX.close();
  }, 30_000);
});

describe("hardening: what the bot shows", () => {
  acceptance(SPEC, "the bot's command menu is set for the owner's chat only, never the default scope", async () => {
    rig = await startChannelRig({}, { pair: false });
    const { tg } = rig;
    // Unpaired: no menu anywhere (a stranger opening the bot sees none), and an old default menu is cleared.
    await tg.waitFor((f) => f.calls("deleteMyCommands", { ok: true }).length > 0);
    expect(tg.commandScopes()).toEqual([]);
    await rig.pair();
    await tg.waitFor((f) => f.commandsIn(`chat:${OWNER.id}`).length > 0);
    expect(tg.commandScopes()).toEqual([`chat:${OWNER.id}`]);
    expect(tg.commandsIn(`chat:${OWNER.id}`)).toEqual(expect.arrayContaining([expect.objectContaining({ command: "stop" })]));
    // A restart sets it again for the owner only.
    const before = tg.calls("setMyCommands").length;
    await rig.t.api.post(`/channels/${rig.channelId}/disable`);
    await rig.t.api.post(`/channels/${rig.channelId}/enable`);
    await tg.waitFor((f) => f.calls("setMyCommands", { ok: true }).length > before);
    expect(tg.calls("setMyCommands").every((c) => c.params.scope?.type === "chat")).toBe(true);
    expect(tg.commandScopes()).toEqual([`chat:${OWNER.id}`]);
  });

  acceptance(SPEC, "relayed text carries no tg:// or other non-web links", async () => {
    rig = await startChannelRig();
    const hostile = [
      "[login](tg://resolve?domain=evil_bot&start=steal)",
      "<tg://join?invite=abc>",
      "[run](javascript:alert(1))",
      "[mail](mailto:eve@example.com)",
      "![img](tg://user?id=1)",
      "[docs](https://example.com/docs) end",
    ].join(" · ");
    rig.say(script({ text: hostile }));
    const answer = await rig.botSays((m) => m.text.includes("end") && m.html !== null);
    const hrefs = [...answer.html!.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual(["https://example.com/docs"]);
    expect(answer.text).toContain("login");
    expect(answer.text).toContain("mail");
  });
});

describe("hardening: questions", () => {
  acceptance(SPEC, "an open question in one conversation does not capture the owner's message meant for another", async () => {
    rig = await startChannelRig();
    const { t } = rig;
    rig.say(script({ ask: { questions: [QUESTION] } }, { text: " — answered" }));
    await rig.botSays((m) => m.text.startsWith("❓ [Deploy]"));
    const [x] = (await t.api.get("/chat/conversations")).body.conversations;
    rig.say("/new");
    await rig.botSays((m) => m.text.startsWith("🆕"));
    // "2" is a valid option of X's question, but the chat now talks to the new conversation.
    rig.say("2");
    await rig.botSays((m) => m.text === "echo: 2");
    const still = await rig.botSays((m) => m.text.startsWith("❓ Still waiting for your answer in"));
    expect(still.text).toContain("1. staging");
    expect((await t.api.get(`/chat/conversations/${x.id}/questions`)).body.questions[0]).toMatchObject({ state: "open" });
    const others = (await t.api.get("/chat/conversations")).body.conversations.filter((c: { id: string }) => c.id !== x.id);
    expect(others).toHaveLength(1);
    const thread = (await t.api.get(`/chat/conversations/${others[0].id}/messages`)).body.messages;
    expect(thread[0].content[0].text).toBe("2");

    // Back in X (via /list and /open), the next message answers X's question.
    x.title = (await t.api.get(`/chat/conversations/${x.id}`)).body.title;
    rig.say("/list");
    const listed = await rig.botSays((m) => m.text.includes("/open <n>") && m.text.includes(x.title));
    const index = listed.text.split("\n").find((l) => l.includes(x.title) && !l.includes("▶"))!.split(".")[0];
    rig.say(`/open ${index}`);
    await rig.botSays((m) => m.text.startsWith("Switched to"));
    rig.say("2");
    const done = await rig.botSays((m) => m.text.includes("— answered"));
    expect(done.text).toContain('"selected":["prod"]');
  });
});
