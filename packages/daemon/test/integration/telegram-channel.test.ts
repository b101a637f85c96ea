/**
 * The Telegram channel end to end: a real daemon (real SQLite, real HTTP) and our fake Bot API
 * on 127.0.0.1, the scripted agent. Every wait is on a published signal: the fake's call log and
 * chat (waitFor), the daemon's live bus, or the next poll's offset (the daemon handled an update).
 */
import { PAIRING_ALPHABET } from "@coffer/protocol";
import { afterEach, describe, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { BOT, OWNER, STRANGER, startChannelRig, type ChannelRig } from "../support/channel-rig.js";
import { script } from "../support/scripted-agent.js";

const SPEC = "013-telegram-channel";
let rig: ChannelRig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

/** Everything but polling: what the daemon sent Telegram. */
function outgoing(r: ChannelRig) {
  return r.tg.sent.filter((c) => !["getUpdates", "getMe", "setMyCommands", "deleteMyCommands"].includes(c.method));
}

describe("channels: add, pair, strangers", () => {
  acceptance(SPEC, "add a Telegram channel; a bad token or ref is refused and nothing is stored", async () => {
    rig = await startChannelRig({}, { pair: false });
    const { t, tg } = rig;
    const shown = (await t.api.get(`/channels/${rig.channelId}`)).body;
    expect(shown).toMatchObject({ kind: "telegram", name: "phone", bot: { username: BOT.username }, owner: null, enabled: true });
    await tg.waitFor(() => tg.calls("getUpdates", { ok: true }).length > 0);
    expect((await t.api.get(`/channels/${rig.channelId}`)).body.status.state).toBe("polling");
    // Not paired yet: no command menu for anyone (issue 21: it is set for the owner's chat only).
    await tg.waitFor(() => tg.calls("deleteMyCommands", { ok: true }).length > 0);
    expect(tg.commandScopes()).toEqual([]);

    await t.api.put("/credentials/wrong", { secret: "9999:not-a-known-token-at-all" });
    const refused = await t.api.post("/channels", { kind: "telegram", name: "other", bot_token_ref: "wrong", default_agent: "scripted" });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("CHANNEL_TOKEN_REJECTED");
    expect(JSON.stringify(refused.body)).not.toContain("9999:not-a-known");
    const noRef = await t.api.post("/channels", { kind: "telegram", name: "other", bot_token_ref: "missing", default_agent: "scripted" });
    expect([noRef.status, noRef.body.error.code]).toEqual([404, "CREDENTIAL_NOT_FOUND"]);
    const badAgent = await t.api.post("/channels", { kind: "telegram", name: "other", bot_token_ref: "tg-bot", default_agent: "nobody" });
    expect(badAgent.body.error.code).toBe("UNKNOWN_AGENT");
    const sameBot = await t.api.post("/channels", { kind: "telegram", name: "again", bot_token_ref: "tg-bot", default_agent: "scripted" });
    expect([sameBot.status, sameBot.body.error.code]).toEqual([409, "CHANNEL_BOT_TAKEN"]);
    const sameName = await t.api.post("/channels", { kind: "telegram", name: "phone", bot_token_ref: "tg-bot", default_agent: "scripted" });
    expect(sameName.body.error.code).toBe("CHANNEL_NAME_TAKEN");
    const invalid = await t.api.post("/channels", { kind: "sms", name: "x", bot_token_ref: "tg-bot", default_agent: "scripted" });
    expect(invalid.status).toBe(422);
    expect((await t.api.get("/channels")).body.channels.map((c: { name: string }) => c.name)).toEqual(["phone"]);

    // A 5xx while checking: one attempt, no backoff (the owner is waiting on a form), nothing stored.
    const checks = tg.calls("getMe").length;
    tg.failNext("getMe", 1, { status: 502, description: "Bad Gateway" });
    const flaky = await t.api.post("/channels", { kind: "telegram", name: "flaky", bot_token_ref: "tg-bot", default_agent: "scripted" });
    expect([flaky.status, flaky.body.error.code]).toEqual([502, "CHANNEL_UNREACHABLE"]);
    expect(tg.calls("getMe").length).toBe(checks + 1);
    // Telegram unreachable: 502, nothing stored.
    await tg.close();
    const down = await t.api.post("/channels", { kind: "telegram", name: "down", bot_token_ref: "wrong", default_agent: "scripted" });
    expect([down.status, down.body.error.code]).toEqual([502, "CHANNEL_UNREACHABLE"]);
    expect((await t.api.get("/channels")).body.channels).toHaveLength(1);
  });

  test("a new channel reads Connected once its first poll is answered, not after a long poll is held out", async () => {
    rig = await startChannelRig({}, { pair: false });
    const { t, tg } = rig;
    // A held long poll means the daemon already heard back from Telegram: it must say so.
    await tg.waitFor((f) => f.polling());
    expect((await t.api.get(`/channels/${rig.channelId}`)).body.status.state).toBe("polling");
    expect(tg.calls("getUpdates").map((c) => Number(c.params.timeout))).toEqual([0, 5]);
  });

  acceptance(SPEC, "the owner pairs with a one-time code or the deep link", async () => {
    rig = await startChannelRig({}, { pair: false });
    const { t } = rig;
    const issued = (await t.api.post(`/channels/${rig.channelId}/pairing-code`)).body;
    expect(issued.code).toHaveLength(8);
    for (const ch of issued.code) expect(PAIRING_ALPHABET).toContain(ch);
    expect(issued.deep_link).toBe(`https://t.me/${BOT.username}?start=${issued.code}`);
    // The deep link arrives as "/start CODE".
    rig.say(`/start ${issued.code}`);
    await rig.botSays((m) => m.text.startsWith("Paired."));
    const channel = (await t.api.get(`/channels/${rig.channelId}`)).body;
    expect(channel.owner).toMatchObject({ name: OWNER.first_name });
    const audit = (await t.api.get("/audit?action=channel_paired")).body.entries;
    expect(audit).toHaveLength(1);
    expect(JSON.stringify((await t.api.get("/audit")).body)).not.toContain(issued.code);

    // Used once: a second account sending the same code is a stranger.
    const before = outgoing(rig).length;
    const again = rig.tg.userSays({ chatId: STRANGER.id, from: STRANGER, text: issued.code }).update_id;
    await rig.handled(again);
    expect(outgoing(rig).length).toBe(before);
    expect((await t.api.get(`/channels/${rig.channelId}`)).body.owner.name).toBe(OWNER.first_name);

    // Re-pairing from another account replaces the owner.
    const next = (await t.api.post(`/channels/${rig.channelId}/pairing-code`)).body.code;
    rig.tg.userSays({ chatId: STRANGER.id, from: STRANGER, text: next });
    await rig.tg.waitFor((f) => f.chat(STRANGER.id).some((m) => m.from === "bot" && m.text.startsWith("Paired.")));
    expect((await t.api.get(`/channels/${rig.channelId}`)).body.owner.name).toBe(STRANGER.first_name);
  });

  acceptance(SPEC, "an expired, wrong or eleventh pairing guess is ignored", async () => {
    rig = await startChannelRig({}, { pair: false });
    const { t, tg } = rig;
    const { code } = (await t.api.post(`/channels/${rig.channelId}/pairing-code`)).body;
    const wrong = code === "ABCDEFGH" ? "HGFEDCBA" : "ABCDEFGH";
    let last = 0;
    for (let i = 0; i < 10; i++) last = tg.userSays({ chatId: STRANGER.id, from: STRANGER, text: wrong }).update_id;
    await rig.handled(last);
    // The same sender's 11th guess — even the right code — is not heard (issue 21: guesses count
    // per sender, so the code itself stays live for the owner).
    const eleventh = tg.userSays({ chatId: STRANGER.id, from: STRANGER, text: code }).update_id;
    await rig.handled(eleventh);
    expect(outgoing(rig)).toEqual([]);
    const channel = (await t.api.get(`/channels/${rig.channelId}`)).body;
    expect(channel.owner).toBeNull();
    expect(channel.pairing.state).toBe("live");
    expect(channel.counts.strangers_ignored).toBe(11);
  });

  acceptance(SPEC, "a stranger's messages get no reply, no turn and no row", async () => {
    rig = await startChannelRig();
    const { t, tg } = rig;
    const conversationsBefore = (await t.api.get("/chat/conversations")).body.conversations.length;
    const sentBefore = outgoing(rig).length;
    const turnsBefore = t.scripted.turns.length;
    let last = 0;
    for (const text of ["hi", "/new", "/status", "run rm -rf /", "/start"]) last = tg.userSays({ chatId: STRANGER.id, from: STRANGER, text }).update_id;
    // Another sender inside the owner's own chat id is not the owner either.
    last = tg.userSays({ chatId: OWNER.id, from: STRANGER, text: "spoofed" }).update_id;
    await rig.handled(last);
    expect(outgoing(rig).length).toBe(sentBefore);
    expect(t.scripted.turns.length).toBe(turnsBefore);
    expect((await t.api.get("/chat/conversations")).body.conversations.length).toBe(conversationsBefore);
    expect((await t.api.get(`/channels/${rig.channelId}`)).body.counts.strangers_ignored).toBe(6);
    const audit = JSON.stringify((await t.api.get("/audit")).body);
    expect(audit).not.toContain("spoofed");
  });
});

describe("channels: turns from the phone and the desktop", () => {
  test("a phone message starts a turn in a bound conversation; the answer arrives as a new message", async () => {
    rig = await startChannelRig();
    const { t } = rig;
    const list = await t.subscribeList();
    rig.say("hello from the phone");
    const created = await list.waitFor((e) => (e as { type: string }).type === "conversation_created");
    const conv = (created.event as unknown as { conversation: { id: string; channel_binding: unknown } }).conversation;
    expect(conv.channel_binding).toEqual({ channel: "telegram", chat_id: String(OWNER.id), channel_id: rig.channelId });
    const answer = await rig.botSays((m) => m.text.includes("hello from the phone") && !m.text.startsWith("Paired"));
    expect(answer.text).toMatch(/echo/i);
    const messages = (await t.api.get(`/chat/conversations/${conv.id}/messages`)).body.messages;
    expect(messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
    // Not mirrored back: the phone's own message is not echoed as "(from Coffer)".
    expect(rig.botMessages().some((m) => m.text.startsWith("(from Coffer)"))).toBe(false);
    list.close();
  });

  acceptance(SPEC, "a desktop message into a bound conversation is mirrored to the chat with its reply", async () => {
    rig = await startChannelRig();
    const { t } = rig;
    rig.say("first from the phone");
    await rig.botSays((m) => m.text.includes("first from the phone"));
    const conv = (await t.api.get("/chat/conversations")).body.conversations[0];
    const sub = await t.subscribe(conv.id);
    await t.api.post(`/chat/conversations/${conv.id}/messages`, { text: "typed on the desktop" });
    await sub.waitFor((e) => e.type === "turn_done");
    const mirrored = await rig.botSays((m) => m.text === "(from Coffer) typed on the desktop");
    const reply = await rig.botSays((m) => m.messageId > mirrored.messageId && m.text.includes("typed on the desktop"));
    expect(reply.text).not.toContain("(from Coffer)");
    sub.close();
  });

  test("a message steered from the desktop into a phone's turn is mirrored, and the answer is what came after it", async () => {
    rig = await startChannelRig();
    const { t } = rig;
    const first = rig.say(script({ text: "working " }, { await_steer: true }, { text: " and done" }));
    await rig.handled(first);
    const conv = (await t.api.get("/chat/conversations")).body.conversations[0];
    const sub = await t.subscribe(conv.id);
    await sub.waitFor((e) => e.type === "text_delta");
    await t.api.post(`/chat/conversations/${conv.id}/messages`, { text: "steer from desk", delivery: "steer" });
    await sub.waitFor((e) => e.type === "turn_done");
    const mirrored = await rig.botSays((m) => m.text === "(from Coffer, into the running turn) steer from desk");
    const answer = await rig.botSays((m) => m.messageId > mirrored.messageId && m.text.includes("and done"));
    expect(answer.text).toContain("steered: steer from desk and done");
    expect(answer.text).not.toContain("working");
    sub.close();
  });

  acceptance(SPEC, "phone messages during a turn queue in order; /stop pauses; the next resumes; the 11th is refused", async () => {
    rig = await startChannelRig();
    const { t } = rig;
    const first = rig.say(script({ text: "working" }, { gate: "hold" }, { text: " done" }));
    await rig.handled(first);
    const conv = (await t.api.get("/chat/conversations")).body.conversations[0];
    const sub = await t.subscribe(conv.id);
    await sub.waitFor((e) => e.type === "text_delta");
    for (let i = 1; i <= 10; i++) rig.say(`queued ${i}`);
    const eleventh = rig.say("queued 11");
    await rig.handled(eleventh);
    await rig.botSays((m) => m.text.includes("10 messages are already waiting, so this one was not queued. Wait for a reply, or /stop."));
    const pending = (await t.api.get(`/chat/conversations/${conv.id}/pending`)).body.pending.map((p: { text: string }) => p.text);
    expect(pending).toEqual(Array.from({ length: 10 }, (_, i) => `queued ${i + 1}`));
    // One acknowledgement per poll batch: together they count all ten, the last says 10 waiting.
    const acks = rig.botMessages().filter((m) => m.text.startsWith("⏳ Queued")).map((m) => m.text.split("\n")[0]!);
    const counted = acks.map((a) => Number(/^⏳ Queued (?:(\d+) messages )?\((\d+) waiting\)$/.exec(a)?.[1] ?? 1));
    expect(counted.reduce((x, y) => x + y, 0)).toBe(10);
    expect(acks.at(-1)).toMatch(/\(10 waiting\)$/);
    // Desktop sends are not capped by the phone's 10.
    const desktop = await t.api.post(`/chat/conversations/${conv.id}/messages`, { text: "from the desktop" });
    expect(desktop.status).toBe(202);

    rig.say("/stop");
    await sub.waitFor((e) => e.type === "turn_done");
    const stopped = await rig.botSays((m) => m.text.startsWith("⏹ Stopped"));
    expect(stopped.text).toContain("11 queued messages wait");
    expect((await t.api.get(`/chat/conversations/${conv.id}/pending`)).body.paused).toBe(true);
    // The partial reply was kept (sent before the stop line).
    expect(rig.botMessages().some((m) => m.text === "working")).toBe(true);

    // The next phone message resumes the held queue, which runs in order. With 11 waiting (the
    // desktop's included) the phone's message itself is over its cap: refused, but it resumes.
    rig.say("and now this");
    await rig.botSays((m) => m.text.endsWith("The queue runs again now."));
    const starts = await sub.waitForCount((e) => e.type === "turn_start", 12);
    const order = starts.slice(1).map((s) => (s.event as { user_message: { content: { text: string }[] } }).user_message.content[0]!.text);
    expect(order).toEqual([...Array.from({ length: 10 }, (_, i) => `queued ${i + 1}`), "from the desktop"]);
    await sub.waitForCount((e) => e.type === "turn_done", 12);
    // Under the cap again: a phone message while idle starts at once.
    rig.say("last one");
    await rig.botSays((m) => m.text.includes("last one"));
    sub.close();
  });

  test("a phone message over the cap does not lift a plan-limit hold (only its reset or the owner's resume does)", async () => {
    rig = await startChannelRig();
    const { t } = rig;
    const limits = { limits: { status: "rejected" as const, window: "five_hour", used: 100, resetsInMs: 60_000 } };
    const first = rig.say(script(limits, { error: { code: "plan_limit", message: "plan limit" } }));
    await rig.handled(first);
    const conv = (await t.api.get("/chat/conversations")).body.conversations[0];
    const sub = await t.subscribe(conv.id);
    await sub.waitFor((e) => e.type === "queue_changed" && !!e.hold);
    let last = 0;
    for (let i = 1; i <= 11; i++) last = rig.say(`held ${i}`);
    await rig.handled(last);
    await rig.botSays((m) => m.text.includes("not queued. Wait for a reply, or /stop."));
    const pending = (await t.api.get(`/chat/conversations/${conv.id}/pending`)).body;
    expect(pending).toMatchObject({ paused: true, hold: { reason: "plan_limit" } });
    expect(pending.pending).toHaveLength(10);
    sub.close();
  });

  acceptance(SPEC, "/new, /status, /model, /list and /open each answer in one message", async () => {
    rig = await startChannelRig();
    const { t } = rig;
    const desktop = await t.conversation();
    await t.api.patch(`/chat/conversations/${desktop}`, { title: "Desktop work" });
    rig.say("hello");
    await rig.botSays((m) => m.text.includes("hello") && !m.text.startsWith("Paired"));
    const count = () => rig!.botMessages().length;

    let n = count();
    rig.say("/status");
    const status = await rig.botSays((m) => m.text.startsWith("📋"));
    expect(status.text).toContain("Agent: Scripted (tests)");
    expect(status.text).toContain("Turn: idle");
    expect(count()).toBe(n + 1);

    n = count();
    rig.say("/model scripted-9");
    await rig.botSays((m) => m.text === "Model set to scripted-9 from the next reply.");
    expect(count()).toBe(n + 1);
    const active = (await t.api.get("/chat/conversations")).body.conversations.find((c: { channel_binding: unknown }) => c.channel_binding);
    expect((await t.api.get(`/chat/conversations/${active.id}/agent-config`)).body.model).toBe("scripted-9");

    n = count();
    rig.say("/list");
    const listed = await rig.botSays((m) => m.text.includes("Continue one here with /open"));
    expect(listed.text).toContain("Desktop work");
    expect(count()).toBe(n + 1);
    const line = listed.text.split("\n").find((l) => l.includes("Desktop work"))!;
    const index = line.split(".")[0];

    n = count();
    rig.say(`/open ${index}`);
    await rig.botSays((m) => m.text.startsWith("Switched to “Desktop work”"));
    expect(count()).toBe(n + 1);
    expect((await t.api.get(`/chat/conversations/${desktop}`)).body.channel_binding).toMatchObject({ channel_id: rig.channelId });
    rig.say("continue here");
    await rig.botSays((m) => m.text.includes("continue here"));
    const thread = (await t.api.get(`/chat/conversations/${desktop}/messages`)).body.messages;
    expect(thread[0].content[0].text).toBe("continue here");

    n = count();
    rig.say("/new nobody");
    await rig.botSays((m) => m.text.startsWith("⚠️ unknown agent"));
    rig.say("/new");
    await rig.botSays((m) => m.text.startsWith("🆕 New conversation with Scripted (tests)"));
    expect(count()).toBe(n + 2);
    expect((await t.api.get("/chat/conversations")).body.conversations).toHaveLength(3);

    rig.say("/unknown thing");
    await rig.botSays((m) => m.text.includes("/unknown thing"));
  });

  acceptance(SPEC, "a long turn shows one progress message edited at most once per interval", async () => {
    rig = await startChannelRig({ channelTimings: { backoffMs: [20], editIntervalMs: 300 } });
    const { t, tg } = rig;
    rig.say(script({ tool: { id: "t1", name: "Bash", input: { command: "npm test" }, output: "ok" } }, { repeat: 300, text: "x", perSecond: 200 }, { text: "FINAL" }));
    const progress = await rig.botSays((m) => m.text.startsWith("⏳ Working"));
    expect(progress.text).toContain("Bash · npm test");
    expect(progress.silent).toBe(true);
    const answer = await rig.botSays((m) => m.text.endsWith("FINAL") && !m.text.startsWith("⏳"));
    expect(answer.messageId).toBeGreaterThan(progress.messageId);
    // Deleted at the end: the phone is left with the answer.
    await tg.waitFor(() => !rig!.botMessages().some((m) => m.text.startsWith("⏳ Working")));
    expect(tg.editTimes(OWNER.id).length).toBeGreaterThan(1);
    expect(tg.maxEditsInWindow(OWNER.id, 300)).toBeLessThanOrEqual(1);
    void t;
  });
});

describe("channels: the agent asks the phone", () => {
  const question = {
    header: "Deploy",
    text: "Where to?",
    options: [
      { label: "staging", description: "safe" },
      { label: "prod", description: "" },
    ],
    multi_select: false,
    allow_free_text: true,
  };

  acceptance("014-owner-in-the-loop", "a question in a bound conversation reaches the phone and is answered there (first answer wins across surfaces)", async () => {
    rig = await startChannelRig();
    const { t } = rig;
    rig.say(script({ ask: { questions: [question] } }, { text: " — done" }));
    const asked = await rig.botSays((m) => m.text.startsWith("❓ [Deploy] Where to?"));
    expect(asked.text).toContain("1. staging — safe\n2. prod");
    // Not a number the question has: the phone is told how to answer, the agent keeps waiting.
    rig.say("7");
    await rig.botSays((m) => m.text.startsWith("That does not answer the question."));
    rig.say("2");
    const done = await rig.botSays((m) => m.text.includes("— done"));
    expect(done.text).toContain('answers: [{"selected":["prod"]}]');
    const conv = (await t.api.get("/chat/conversations")).body.conversations[0];
    expect((await t.api.get(`/chat/conversations/${conv.id}/questions`)).body.questions[0]).toMatchObject({ state: "answered", by: "telegram" });

    // Answered on the desktop first: the phone's late answer is refused and names the winner.
    const sub = await t.subscribe(conv.id);
    rig.say(script({ ask: { questions: [question] } }, { text: " — second" }));
    const open = await sub.waitFor((e) => e.type === "question");
    await rig.botSays((m) => m.text.startsWith("❓") && m.messageId > asked.messageId);
    const qid = (open.event as { question_id: string }).question_id;
    expect((await t.api.post(`/chat/conversations/${conv.id}/questions/${qid}/answer`, { answers: [{ selected: ["staging"] }], by: "web" })).status).toBe(204);
    await rig.botSays((m) => m.text.includes("— second"));
    // The question closed with the turn: the next message is a message again, not an answer.
    rig.say("1");
    await rig.botSays((m) => m.text.includes("echo") && m.text.includes("1"));
    sub.close();
  });
});

describe("channels: delivery", () => {
  acceptance(SPEC, "a long markdown answer arrives as HTML parts split outside code blocks", async () => {
    rig = await startChannelRig();
    const code = Array.from({ length: 60 }, (_, i) => `const line${i} = ${i}; // <${i}> & more`).join("\n");
    const para = "Some **bold** text with `inline` and a [link](https://example.com). ".repeat(20);
    const answer = [`# Report`, para, "```ts", code, "```", para, "```ts", code, "```", para].join("\n\n");
    rig.say(script({ text: answer }));
    const parts = await (async () => {
      await rig!.tg.waitFor(() => rig!.botMessages().some((m) => /^\(\d\/(\d)\)/.test(m.text) && m.text.startsWith(`(${m.text.match(/^\(\d\/(\d)\)/)![1]}/`)));
      return rig!.botMessages().filter((m) => /^\(\d\/\d\)/.test(m.text));
    })();
    expect(parts.length).toBeGreaterThan(1);
    for (const [i, p] of parts.entries()) {
      expect(p.text.startsWith(`(${i + 1}/${parts.length})`)).toBe(true);
      expect(p.html).not.toBeNull();
      expect(p.html!.length).toBeLessThan(4096);
      expect(p.silent).toBe(i > 0);
    }
    const html = parts.map((p) => p.html).join("");
    expect(html).toContain("<b>bold</b>");
    expect(html).toContain("&lt;0&gt; &amp; more");
    // Every code line arrives exactly once, inside <pre>.
    for (let i = 0; i < 60; i++) expect(parts.map((p) => p.text).join("\n").split(`const line${i} = ${i};`).length - 1).toBe(2);
  });

  acceptance(SPEC, "a message refused as bad HTML is resent as plain text", async () => {
    rig = await startChannelRig();
    rig.tg.failNext("sendMessage", 1, { status: 400, description: "Bad Request: can't parse entities: unexpected end tag" });
    rig.say(script({ text: "**bold** answer" }));
    const plain = await rig.botSays((m) => m.text.includes("bold answer"));
    expect(plain.html).toBeNull();
    expect(rig.tg.calls("sendMessage", { ok: false })).toHaveLength(1);
  });

  acceptance(SPEC, "429s and 5xx storms deliver every message exactly once, in order", async () => {
    rig = await startChannelRig();
    const { tg } = rig;
    tg.failNext("sendMessage", 2, { status: 429, description: "Too Many Requests: retry after 1", retry_after: 1 });
    rig.say(script({ text: "one" }));
    await rig.botSays((m) => m.text === "one");
    tg.failAll("sendMessage", { status: 502, description: "Bad Gateway" });
    rig.say(script({ text: "two" }));
    rig.say(script({ text: "three" }));
    // The storm outlasts grammY's retries: the outbox holds the messages and keeps trying.
    await tg.waitFor((f) => f.calls("sendMessage", { ok: false }).length >= 12);
    expect((await rig.t.api.get(`/channels/${rig.channelId}`)).body.counts.outbox).toBeGreaterThan(0);
    expect((await rig.t.api.get(`/channels/${rig.channelId}`)).body.status.last_error).toMatch(/retrying/i);
    tg.heal();
    await rig.botSays((m) => m.text === "three");
    const texts = rig.botMessages().map((m) => m.text).filter((x) => ["one", "two", "three"].includes(x));
    expect(texts).toEqual(["one", "two", "three"]);
    expect((await rig.t.api.get(`/channels/${rig.channelId}`)).body.counts.outbox).toBe(0);
  });
});

describe("channels: lifecycle and secrets", () => {
  acceptance(SPEC, "disable, enable and delete a channel; its conversations stay in history", async () => {
    rig = await startChannelRig();
    const { t, tg } = rig;
    rig.say("before");
    await rig.botSays((m) => m.text.includes("before"));
    const conv = (await t.api.get("/chat/conversations")).body.conversations[0];

    const disabled = await t.api.post(`/channels/${rig.channelId}/disable`);
    expect(disabled.body).toMatchObject({ enabled: false, status: { state: "disabled" } });
    await tg.waitFor((f) => !f.polling());
    // Written while the channel is off: Telegram keeps it until the channel polls again.
    rig.say("while off");
    const enabled = await t.api.post(`/channels/${rig.channelId}/enable`);
    expect(enabled.body.enabled).toBe(true);
    await rig.botSays((m) => m.text.includes("while off"));
    expect((await t.api.get(`/channels/${rig.channelId}`)).body.status.state).toBe("polling");

    expect((await t.api.delete(`/channels/${rig.channelId}`)).status).toBe(204);
    expect((await t.api.get(`/channels/${rig.channelId}`)).body.error.code).toBe("CHANNEL_NOT_FOUND");
    await tg.waitFor((f) => !f.polling());
    const kept = (await t.api.get(`/chat/conversations/${conv.id}`)).body;
    expect(kept.channel_binding).toBeNull();
    expect((await t.api.get(`/chat/conversations/${conv.id}/messages`)).body.messages.length).toBe(4);
    const actions = (await t.api.get("/audit")).body.entries.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["channel_created", "channel_paired", "channel_disabled", "channel_enabled", "channel_deleted"]));
    for (const path of [`/channels/${rig.channelId}/enable`, `/channels/${rig.channelId}/pairing-code`]) {
      const res = await t.api.post(path);
      expect([res.status, res.body.error.code]).toEqual([404, "CHANNEL_NOT_FOUND"]);
    }
  });

  acceptance(SPEC, "a revoked token stops the channel with a clear status; the daemon carries on", async () => {
    rig = await startChannelRig();
    const { t, tg } = rig;
    tg.failAll("getUpdates", { status: 401, description: "Unauthorized" });
    // The held poll ends (another poller would, too); the next one gets 401.
    tg.userSays({ chatId: OWNER.id, from: OWNER, text: "wake the poll" });
    await tg.waitFor((f) => f.calls("getUpdates", { ok: false }).length > 0);
    const stopped = await (async () => {
      for (;;) {
        const c = (await t.api.get(`/channels/${rig!.channelId}`)).body;
        if (c.status.state === "stopped") return c;
        await new Promise((r) => setImmediate(r));
      }
    })();
    expect(stopped.status.last_error).toMatch(/token/i);
    expect(JSON.stringify(stopped)).not.toContain(BOT.token);
    expect((await t.api.get("/health")).status).toBe(200);
    tg.heal();
    expect((await t.api.post(`/channels/${rig.channelId}/enable`)).body.status.state).toMatch(/starting|polling/);
    await tg.waitFor((f) => f.polling());
  });
});
