/**
 * The Telegram adapter (grammY underneath) against the fake Bot API over real HTTP: long
 * polling, offsets, abort, retries of 429/5xx/network faults, the plain resend of refused
 * HTML, and failures that never carry the bot token.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PlatformFailure } from "../../src/application/channels/ports.js";
import type { TelegramBotConnection as BotConnection } from "../../src/infrastructure/telegram/telegram-connection.js";
import { TelegramPlatform } from "../../src/infrastructure/telegram/telegram-platform.js";
import { FakeTelegram } from "../fakes/fake-telegram.js";

const TOKEN = "4242:AAE-fake-token-for-tests";
const OWNER = { id: 7001, first_name: "Ada", last_name: "L" };
const FAST = { maxRetryAttempts: 3, maxDelaySeconds: 2, backoffSeconds: 0.05 };

let fake: FakeTelegram;
let platform: TelegramPlatform;
let bot: BotConnection;

beforeEach(async () => {
  fake = await FakeTelegram.start();
  fake.addBot({ token: TOKEN, id: 4242, username: "coffer_test_bot", first_name: "Coffer" });
  platform = new TelegramPlatform({ apiRoot: fake.apiRoot + "/", retry: FAST });
  bot = platform.connect(TOKEN);
});

afterEach(async () => {
  await fake.close();
});

async function failureOf(p: Promise<unknown>): Promise<PlatformFailure> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PlatformFailure);
  const f = err as PlatformFailure;
  for (const s of [f.message, String(f), f.stack ?? ""]) {
    expect(s).not.toContain(TOKEN);
    expect(s).not.toContain(fake.apiRoot);
  }
  return f;
}

const held = (f: FakeTelegram) => f.polling();

describe("TelegramPlatform", () => {
  it("reads the bot's identity", async () => {
    expect(await bot.getMe()).toEqual({ id: "4242", username: "coffer_test_bot", name: "Coffer" });
  });

  it("reports a refused token as unauthorized, without the token", async () => {
    const f = await failureOf(platform.connect("9999:wrong").getMe());
    expect(f.kind).toBe("unauthorized");
    const g = await failureOf(platform.connect(TOKEN + "x").getMe());
    expect(g.message).not.toContain(TOKEN);
  });

  it("builds the pairing deep link", () => {
    expect(platform.deepLink("coffer_test_bot", "abc123")).toBe("https://t.me/coffer_test_bot?start=abc123");
  });

  it("long-polls: a message sent after the poll started ends it", async () => {
    const poll = bot.getUpdates(0, 20, new AbortController().signal);
    await fake.waitFor(held);
    const update = fake.userSays({ chatId: OWNER.id, from: OWNER, text: "hello" });
    expect(await poll).toEqual([
      { updateId: String(update.update_id), chatId: "7001", threadId: null, chatType: "private", sender: { id: "7001", name: "Ada L" }, text: "hello" },
    ]);
    const call = fake.calls("getUpdates")[0]!;
    expect(call.params).toMatchObject({ offset: 0, timeout: 20, allowed_updates: ["message", "callback_query"] });
  });

  it("maps groups, forum topics and channel posts", async () => {
    fake.userSays({ chatId: -100, from: OWNER, text: "in topic", chatType: "supergroup", threadId: 5 });
    fake.userSays({ chatId: -200, from: OWNER, text: "post", chatType: "channel" });
    const [topic, post] = await bot.getUpdates(0, 0, new AbortController().signal);
    expect(topic).toMatchObject({ chatId: "-100", chatType: "group", threadId: "5", text: "in topic" });
    // Channel posts are not "message" updates: text null, but the id is there so the offset moves on.
    expect(post).toMatchObject({ chatId: "-200", chatType: "channel", sender: null, text: null });
  });

  it("confirms updates below the offset", async () => {
    const a = fake.userSays({ chatId: OWNER.id, from: OWNER, text: "one" });
    const b = fake.userSays({ chatId: OWNER.id, from: OWNER, text: "two" });
    const signal = new AbortController().signal;
    expect((await bot.getUpdates(0, 0, signal)).map((u) => u.text)).toEqual(["one", "two"]);
    expect((await bot.getUpdates(a.update_id + 1, 0, signal)).map((u) => u.text)).toEqual(["two"]);
    expect(await bot.getUpdates(b.update_id + 1, 0, signal)).toEqual([]);
    // Confirmed for good: a poll from offset 0 no longer sees them.
    expect(await bot.getUpdates(0, 0, signal)).toEqual([]);
  });

  it("ends a hanging long poll promptly when aborted", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const poll = bot.getUpdates(0, 30, controller.signal);
    await fake.waitFor(held);
    controller.abort();
    await expect(poll).rejects.toMatchObject({ name: "AbortError" });
    expect(Date.now() - started).toBeLessThan(3000);
    // The connection is gone on the server side too: nothing keeps holding it.
    await fake.waitFor((f) => !f.polling());
  });

  it("maps a second poller's takeover to conflict", async () => {
    const first = bot.getUpdates(0, 30, new AbortController().signal);
    await fake.waitFor(held);
    const second = new AbortController();
    const other = platform.connect(TOKEN).getUpdates(0, 30, second.signal);
    const f = await failureOf(first);
    expect(f.kind).toBe("conflict");
    expect(f.message).toMatch(/409/);
    second.abort();
    await expect(other).rejects.toMatchObject({ name: "AbortError" });
  });

  it("waits out a 429's retry_after and delivers once", async () => {
    fake.failNext("sendMessage", 1, { status: 429, description: "Too Many Requests: retry after 1", retry_after: 1 });
    const started = Date.now();
    const id = await bot.send("7001", null, { text: "hi" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.calls("sendMessage", { ok: false }).map((c) => c.status)).toEqual([429]);
    expect(fake.calls("sendMessage", { ok: true })).toHaveLength(1);
    expect(fake.chat(7001).map((m) => [String(m.messageId), m.text])).toEqual([[id, "hi"]]);
  });

  it("gives up at once on a retry_after longer than allowed, as rate_limited", async () => {
    fake.failNext("sendMessage", 1, { status: 429, description: "Too Many Requests: retry after 600", retry_after: 600 });
    const f = await failureOf(bot.send("7001", null, { text: "hi" }));
    expect(f).toMatchObject({ kind: "rate_limited", retryAfterMs: 600_000 });
    expect(fake.calls("sendMessage")).toHaveLength(1);
  });

  it("rides out a 5xx storm and delivers once after it heals", async () => {
    fake.failAll("sendMessage", { status: 502, description: "Bad Gateway" });
    const sending = bot.send("7001", null, { text: "after the storm" });
    await fake.waitFor((f) => f.calls("sendMessage", { ok: false }).length >= 2);
    fake.heal();
    await sending;
    expect(fake.calls("sendMessage", { ok: true })).toHaveLength(1);
    expect(fake.chat(7001).map((m) => m.text)).toEqual(["after the storm"]);
  });

  it("reports a storm that outlasts the retries as unreachable", async () => {
    fake.failAll("sendMessage", { status: 500, description: "Internal Server Error" });
    const f = await failureOf(bot.send("7001", null, { text: "x" }));
    expect(f.kind).toBe("unreachable");
    expect(fake.calls("sendMessage")).toHaveLength(FAST.maxRetryAttempts + 1);
    expect(fake.chat(7001)).toEqual([]);
  });

  it("retries a dropped connection, and reports a dead one without the URL", async () => {
    fake.dropNext("sendMessage", 1);
    await bot.send("7001", null, { text: "through" });
    expect(fake.calls("sendMessage", { ok: true })).toHaveLength(1);

    fake.dropNext("sendMessage", 10);
    const f = await failureOf(bot.send("7001", null, { text: "lost" }));
    expect(f.kind).toBe("unreachable");
    expect(f.message).toMatch(/^Telegram could not be reached: /);
  });

  it("reports a closed port as unreachable (ECONNREFUSED), without the token", async () => {
    const spare = http.createServer();
    await new Promise<void>((r) => spare.listen(0, "127.0.0.1", r));
    const port = (spare.address() as AddressInfo).port;
    await new Promise<void>((r) => spare.close(() => r()));
    const dead = new TelegramPlatform({ apiRoot: `http://127.0.0.1:${port}`, retry: { ...FAST, maxRetryAttempts: 1 } });
    const f = await failureOf(dead.connect(TOKEN).getMe());
    expect(f).toMatchObject({ kind: "unreachable", cause_code: "ECONNREFUSED" });
    expect(f.message).toMatch(/^Telegram could not be reached: the connection was refused\. Check this machine's network connection/);
  });

  it("reports a request with no answer as unreachable after the request timeout", async () => {
    fake.hangNext("getMe", 1);
    const impatient = new TelegramPlatform({ apiRoot: fake.apiRoot, retry: { ...FAST, maxRetryAttempts: 0 }, requestTimeoutSeconds: 1 });
    const f = await failureOf(impatient.connect(TOKEN).getMe());
    expect(f).toMatchObject({ kind: "unreachable" });
    expect(f.message).toMatch(/^Telegram could not be reached: no answer within 1 s\. Check /);
  });

  it("resends refused HTML once as plain text", async () => {
    const id = await bot.send("7001", null, { text: "bold <b> claim", html: "<b>bold &lt;b&gt; claim" });
    const calls = fake.calls("sendMessage");
    expect(calls.map((c) => [c.status, c.params.parse_mode])).toEqual([
      [400, "HTML"],
      [200, undefined],
    ]);
    expect(calls[0]!.description).toMatch(/can't parse entities/);
    expect(fake.chat(7001)).toMatchObject([{ messageId: Number(id), text: "bold <b> claim", html: null }]);
  });

  it("does not resend on other 400s", async () => {
    const f = await failureOf(bot.send("7001", null, { text: "x".repeat(5000) }));
    expect(f).toMatchObject({ kind: "rejected" });
    expect(f.message).toMatch(/message is too long/);
    expect(fake.calls("sendMessage")).toHaveLength(1);
  });

  it("sends silently, in a topic, without link previews", async () => {
    await bot.send("-100", "5", { text: "t", html: "<i>t</i>", silent: true });
    expect(fake.calls("sendMessage")[0]!.params).toMatchObject({
      chat_id: -100,
      message_thread_id: 5,
      disable_notification: true,
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true },
    });
    expect(fake.chat(-100)).toMatchObject([{ text: "t", html: "<i>t</i>", silent: true, threadId: 5 }]);
  });

  it("edits (ignoring 'not modified'), deletes and sets commands", async () => {
    const id = await bot.send("7001", null, { text: "⏳ working" });
    await bot.edit("7001", id, "⏳ working · 2 steps");
    await bot.edit("7001", id, "⏳ working · 2 steps");
    expect(fake.calls("editMessageText").map((c) => c.status)).toEqual([200, 400]);
    expect(fake.chat(7001)).toMatchObject([{ text: "⏳ working · 2 steps", edits: 1 }]);
    expect(fake.editTimes(7001)).toHaveLength(1);
    await bot.edit("7001", id, "⏳ working · 3 steps");
    expect(fake.maxEditsInWindow(7001, 60_000)).toBe(2);
    await bot.delete("7001", id);
    expect(fake.chat(7001)).toEqual([]);
    const gone = await failureOf(bot.edit("7001", id, "again"));
    expect(gone.kind).toBe("rejected");
    // The menu is set for one chat (BotCommandScopeChat) and cleared per chat or in the default scope.
    await bot.setCommands("7001", [{ command: "new", description: "Start a new conversation" }]);
    expect(fake.calls("setMyCommands")[0]!.params).toMatchObject({
      commands: [{ command: "new", description: "Start a new conversation" }],
      scope: { type: "chat", chat_id: 7001 },
    });
    expect(fake.commandScopes()).toEqual(["chat:7001"]);
    await bot.clearCommands(null);
    expect(fake.calls("deleteMyCommands")[0]!.params.scope).toEqual({ type: "default" });
    await bot.clearCommands("7001");
    expect(fake.commandScopes()).toEqual([]);
  });

  it("the fake reads form bodies and GET queries as Telegram does", async () => {
    const form = await fetch(`${fake.apiRoot}/bot${TOKEN}/sendMessage`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ chat_id: "7001", text: "<b>hi</b>", parse_mode: "HTML" }).toString(),
    });
    expect(await form.json()).toMatchObject({ ok: true, result: { text: "hi", chat: { id: 7001 } } });
    const get = await fetch(`${fake.apiRoot}/bot${TOKEN}/getMe`);
    expect(await get.json()).toMatchObject({ ok: true, result: { username: "coffer_test_bot" } });
    const bad = await fetch(`${fake.apiRoot}/bot${TOKEN}/sendMessage?chat_id=7001&parse_mode=HTML&text=${encodeURIComponent("<b>hi")}`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ ok: false, error_code: 400, description: expect.stringMatching(/^Bad Request: can't parse entities/) });
  });

  it("delivers a long rendered answer: every part passes Telegram's HTML check", async () => {
    const code = "```ts\n" + Array.from({ length: 300 }, (_, i) => `const v${i} = a < b && c > d; // ${i}`).join("\n") + "\n```";
    const answer = `# Plan\n\nDo **this** & <that>.\n\n${code}\n\n- done\n- [link](https://example.org/?q=1&r=2)`;
    const parts = platform.render(answer);
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) await bot.send("7001", null, part);
    const failed = fake.calls("sendMessage", { ok: false });
    expect(failed).toEqual([]);
    const chat = fake.chat(7001);
    expect(chat).toHaveLength(parts.length);
    expect(chat.map((m) => m.silent)).toEqual(parts.map((_, i) => i > 0));
    expect(chat.every((m) => m.html !== null && m.text.length <= 4096)).toBe(true);
  });
});
