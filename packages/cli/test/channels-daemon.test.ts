import { ChannelListOut, ChannelOut, PAIRING_ALPHABET, PairingCodeOut } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { FakeDiscord } from "../../daemon/test/fakes/fake-discord.js";
import { FakeTelegram } from "../../daemon/test/fakes/fake-telegram.js";
import { DISCORD_OWNER } from "../../daemon/test/support/discord-rig.js";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { CredentialListOut } from "@coffer/protocol";
import { acceptance } from "../../daemon/test/support/acceptance.js";
import { cofferAgainst, cofferOnTerminalAnswering } from "./support/run-cli.js";

// DAEMON-BACKED: `coffer channel` against a real daemon whose channels routes talk to the fake
// Telegram Bot API (COFFER_TELEGRAM_API_ROOT) and the fake Discord (REST + gateway). Needs the
// daemon's channels routes and packages/daemon/test/fakes/; the CLI-only cases are in channels.test.ts.

const SPEC = "026-second-platform";
const BOT = { token: "7000001:AAH-cli-test-token-not-a-real-one", id: 7000001, username: "coffer_cli_test_bot", first_name: "Coffer CLI Test" };

let tg: FakeTelegram;
let dc: FakeDiscord;
let t: TestDaemon;
const savedApiRoot = process.env.COFFER_TELEGRAM_API_ROOT;

beforeAll(async () => {
  tg = await FakeTelegram.start();
  tg.addBot(BOT);
  dc = await FakeDiscord.start({ token: "MTAx.discord-cli-test.token-not-real" });
  // Both ways the daemon may read it: its env option and the process env resolveDaemonConfig reads.
  process.env.COFFER_TELEGRAM_API_ROOT = tg.apiRoot;
  // Discord's gateway takes a re-IDENTIFY at once from the fake (Discord's spacing is 5 s).
  t = await startTestDaemon({ env: { ...process.env, COFFER_TELEGRAM_API_ROOT: tg.apiRoot }, discord: { apiRoot: dc.apiRoot }, discordIdentifySpacingMs: 0 });
});
afterAll(async () => {
  await t?.close();
  await tg?.close();
  await dc?.close();
  if (savedApiRoot === undefined) delete process.env.COFFER_TELEGRAM_API_ROOT;
  else process.env.COFFER_TELEGRAM_API_ROOT = savedApiRoot;
});

const coffer = (args: string[], stdin = "") => cofferAgainst(t, args, stdin);
const listed = async () => ChannelListOut.parse(JSON.parse((await coffer(["channel", "ls", "--json"])).stdout)).channels;

// Each case runs the real CLI several times as separate processes: allow for a busy machine.
describe("coffer channel against the daemon [daemon-backed]", { timeout: 90_000 }, () => {
  test("add → ls → show → pair → disable/enable → rm, by name and by id; the token never printed", async () => {
    expect(await coffer(["cred", "set", "tg-cli"], `${BOT.token}\n`)).toMatchObject({ code: 0 });

    const added = await coffer(["channel", "add", "phone", "--kind", "telegram", "--token-ref", "tg-cli", "--agent", "scripted", "--cwd", t.home]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^name: +phone$/m);
    expect(added.stdout).toMatch(/^bot: +@coffer_cli_test_bot \(Coffer CLI Test\)$/m);
    expect(added.stdout).toMatch(/^owner: +not paired$/m);
    expect(added.stdout).toContain("\nPair your phone: coffer channel pair phone\n");

    const [ch, ...others] = await listed();
    expect(others).toEqual([]);
    expect(ch).toMatchObject({ name: "phone", kind: "telegram", bot_token_ref: "tg-cli", default_agent: "scripted", default_cwd: t.home, owner: null });

    // show by name and by id: the same channel, every field.
    const byId = await coffer(["channel", "show", ch!.id, "--json"]);
    expect(ChannelOut.parse(JSON.parse(byId.stdout))).toMatchObject({ id: ch!.id, name: "phone" });
    const shown = await coffer(["channel", "show", "phone"]);
    expect(shown.code).toBe(0);
    for (const line of [
      `id: +${ch!.id}`,
      "platform: +Telegram \\(telegram\\)",
      "last error: +(none|.+)",
      "outbox: +0 waiting",
      "messages: +0 in, 0 out",
      "strangers: +0 ignored",
      "conversations: +0",
      "credentials: +bot_token=tg-cli",
    ]) {
      expect(shown.stdout).toMatch(new RegExp(`^${line}$`, "m"));
    }

    const pairJson = await coffer(["channel", "pair", "phone", "--json"]);
    expect(pairJson.code, pairJson.stderr).toBe(0);
    const pairing = PairingCodeOut.parse(JSON.parse(pairJson.stdout));
    expect(pairing.code).toMatch(new RegExp(`^[${PAIRING_ALPHABET}]{8}$`));
    expect(pairing.deep_link).toMatch(new RegExp(`t\\.me/coffer_cli_test_bot\\?start=${pairing.code}$`));

    const pair = await coffer(["channel", "pair", ch!.id]);
    expect(pair.code).toBe(0);
    const code = /^pairing code: (\S+)$/m.exec(pair.stdout)?.[1];
    expect(code).toMatch(new RegExp(`^[${PAIRING_ALPHABET}]{8}$`));
    expect(pair.stdout).toMatch(/^expires: +\d{4}-\d\d-\d\d \d\d:\d\d \(valid (1 hour|59 minutes)\)$/m);
    expect(pair.stdout).toMatch(new RegExp(`^open on your phone: \\S*t\\.me/coffer_cli_test_bot\\?start=${code}$`, "m"));
    // Piped stdout is not a terminal: no QR code, no escape sequences.
    expect(pair.stdout).not.toContain("\x1b");

    const disabled = await coffer(["channel", "disable", "phone", "--json"]);
    expect(ChannelOut.parse(JSON.parse(disabled.stdout))).toMatchObject({ enabled: false, status: { state: "disabled" } });
    // The platform by its display name; `list` is `ls`.
    const table = (await coffer(["channel", "list"])).stdout;
    expect(table).toMatch(/^NAME +PLATFORM +BOT +STATE +OWNER +OUTBOX +ENABLED$/m);
    expect(table).toMatch(/^phone +Telegram +@coffer_cli_test_bot +disabled +not paired +0 +no$/m);
    const enabled = await coffer(["channel", "enable", ch!.id]);
    expect(enabled.stdout).toMatch(/^enabled phone; state: (starting|polling|retrying)$/m);
    expect((await listed())[0]).toMatchObject({ enabled: true });

    for (const out of [added, byId, shown, pairJson, pair, disabled, enabled]) expect(out.stdout + out.stderr).not.toContain(BOT.token);

    expect(await coffer(["channel", "rm", "phone"])).toMatchObject({ code: 0, stdout: "removed phone\n" });
    expect(await listed()).toEqual([]);
    expect((await coffer(["channel", "ls"])).stdout).toBe("no channels (add one with `coffer channel add`)\n");
    const gone = await coffer(["channel", "show", "phone"]);
    expect(gone.code).toBe(3);
    expect(gone.stderr).toMatch(/no channel named or with id "phone".*\[CHANNEL_NOT_FOUND\]/);
  });

  test("a token the platform refuses, or a ref with no credential: the daemon's refusal, nothing listed", async () => {
    const wrong = "7000002:AAH-a-token-the-fake-does-not-know";
    expect(await coffer(["cred", "set", "tg-wrong"], `${wrong}\n`)).toMatchObject({ code: 0 });
    const refused = await coffer(["channel", "add", "wrong", "--kind", "telegram", "--token-ref", "tg-wrong", "--agent", "scripted"]);
    expect(refused).toMatchObject({ code: 4, stdout: "" });
    expect(refused.stderr).toMatch(/^coffer: .+ \[CHANNEL_TOKEN_REJECTED\]\n$/);
    expect(refused.stderr).not.toContain(wrong);

    const missing = await coffer(["channel", "add", "missing", "--kind", "telegram", "--token-ref", "no-such-ref", "--agent", "scripted"]);
    expect([3, 4]).toContain(missing.code);
    expect(missing.stderr).toMatch(/^coffer: .+ \[[A-Z_]+\]\n$/);

    expect(await listed()).toEqual([]);
  });

  test("a platform's credentials by the names it declares: the secret piped on stdin or typed unseen, never on the command line; refusals in the daemon's codes", async () => {
    const bot2 = { token: "7000003:AAH-cli-second-bot-token-xyz", id: 7000003, username: "coffer_cli_second_bot", first_name: "Second" };
    const bot3 = { token: "7000004:AAH-cli-third-bot-token-abc", id: 7000004, username: "coffer_cli_third_bot", first_name: "Third" };
    tg.addBot(bot2);
    tg.addBot(bot3);
    const refs = async () => CredentialListOut.parse(JSON.parse((await coffer(["cred", "ls", "--json"])).stdout)).credentials.map((c) => c.ref);

    // `channel kinds`: what the daemon registered, with the credentials each declares.
    const kinds = await coffer(["channel", "kinds"]);
    expect(kinds.stdout).toMatch(/^telegram \(Telegram\)\n  bot_token \(secret\): Bot token — From @BotFather/);

    // The secret piped on stdin: stored under a fresh ref of its own, the channel created on it.
    const piped = await coffer(["channel", "add", "Desk Bot", "--kind", "telegram", "--agent", "scripted"], `${bot2.token}\n`);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toMatch(/^credentials: +bot_token=telegram-desk-bot-bot-token$/m);
    expect(piped.stdout).toMatch(/^bot: +@coffer_cli_second_bot/m);
    expect(await refs()).toContain("telegram-desk-bot-bot-token");

    // A secret's value on the command line is refused (it would stay in the shell history), before anything is stored.
    const argv = await coffer(["channel", "add", "leaky", "--kind", "telegram", "--agent", "scripted", "--credential", `bot_token=${bot3.token}`]);
    expect(argv).toMatchObject({ code: 4, stdout: "" });
    expect(argv.stderr).toMatch(/bot_token is a secret: a value on the command line stays in your shell history.*\[USAGE\]\n$/);
    // A kind no adapter registered, a name the platform does not declare, nothing given: the daemon's 422 codes, with what there is.
    const unknownKind = await coffer(["channel", "add", "x", "--kind", "sms", "--agent", "scripted", "--token-ref", "tg-cli"]);
    expect(unknownKind).toMatchObject({ code: 4, stdout: "" });
    expect(unknownKind.stderr).toBe('coffer: no channel platform "sms"; this daemon speaks telegram (Telegram), discord (Discord) [UNKNOWN_CHANNEL_KIND]\n');
    const stray = await coffer(["channel", "add", "x", "--kind", "telegram", "--agent", "scripted", "--token-ref", "tg-cli", "--credential-ref", "webhook=tg-cli"]);
    expect(stray).toMatchObject({ code: 4 });
    expect(stray.stderr).toBe("coffer: credentials for Telegram: it has no credential named webhook (it declares: bot_token (secret)) [CHANNEL_CREDENTIALS_INVALID]\n");
    const none = await coffer(["channel", "add", "x", "--kind", "telegram", "--agent", "scripted"], "");
    expect(none).toMatchObject({ code: 4 });
    expect(none.stderr).toMatch(/^coffer: credentials for Telegram: bot_token is missing: type it at the prompt, pipe it on stdin .* \[CHANNEL_CREDENTIALS_INVALID\]\n$/);
    // A token the platform refuses: the ref this run stored goes again, nothing is listed.
    const before = await refs();
    const refused = await coffer(["channel", "add", "Wrong", "--kind", "telegram", "--agent", "scripted"], "7000009:AAH-unknown-to-the-fake\n");
    expect(refused.stderr).toMatch(/\[CHANNEL_TOKEN_REJECTED\]\n$/);
    expect(await refs()).toEqual(before);

    // On a terminal the secret is asked for with the platform's label and hint, and never echoed.
    const typed = await cofferOnTerminalAnswering(t, ["channel", "add", "typed", "--kind", "telegram", "--agent", "scripted"], [["Telegram bot token (", `${bot3.token}\r`]]);
    expect(typed.code, typed.stdout).toBe(0);
    expect(typed.stdout).toContain("Telegram bot token (From @BotFather: /newbot, then copy the token it sends): ");
    expect(typed.stdout).toMatch(/credentials: +bot_token=telegram-typed-bot-token/);
    expect(typed.stdout).not.toContain(bot3.token);

    // edit: rename, clear nothing, move the token to a new secret (asked for by its bare name), checked with the platform.
    const moved = await coffer(["channel", "edit", "Desk Bot", "--name", "desk", "--cwd", t.home, "--credential", "bot_token"], `${BOT.token}\n`);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(/^name: +desk$/m);
    expect(moved.stdout).toMatch(/^credentials: +bot_token=telegram-desk-bot-token$/m);
    expect(moved.stdout).toMatch(/^bot: +@coffer_cli_test_bot/m);
    const cleared = await coffer(["channel", "edit", "desk", "--clear-cwd", "--token-ref", "telegram-desk-bot-bot-token", "--json"]);
    expect(ChannelOut.parse(JSON.parse(cleared.stdout))).toMatchObject({ default_cwd: null, credentials: { bot_token: "telegram-desk-bot-bot-token" } });

    for (const out of [kinds, piped, argv, unknownKind, stray, none, refused, typed, moved, cleared]) {
      for (const secret of [BOT.token, bot2.token]) expect(out.stdout + out.stderr).not.toContain(secret);
    }
    for (const name of ["desk", "typed"]) expect((await coffer(["channel", "rm", name])).code).toBe(0);
  });

  acceptance(SPEC, "coffer channel handles both kinds", async () => {
    // Both platforms, each with the credentials its adapter declares.
    const kinds = await coffer(["channel", "kinds"]);
    expect(kinds.stdout).toMatch(/^telegram \(Telegram\)\n  bot_token \(secret\): Bot token — From @BotFather.*\ndiscord \(Discord\)\n  bot_token \(secret\): Bot token — Discord Developer Portal/s);
    // With two platforms the owner names one.
    const which = await coffer(["channel", "add", "desk", "--agent", "scripted", "--token-ref", "tg-cli"]);
    expect(which).toMatchObject({ code: 4, stdout: "" });
    expect(which.stderr).toBe("coffer: --kind <kind> is required: this daemon speaks telegram (Telegram), discord (Discord) [USAGE]\n");

    // A Discord token the fake does not know: refused by the platform, its fresh ref removed again.
    const refsBefore = CredentialListOut.parse(JSON.parse((await coffer(["cred", "ls", "--json"])).stdout)).credentials.map((c) => c.ref);
    const wrong = await coffer(["channel", "add", "desk", "--kind", "discord", "--agent", "scripted"], "MTAx.not-the-fakes.token\n");
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).toMatch(/\[CHANNEL_TOKEN_REJECTED\]\n$/);
    expect(wrong.stderr).not.toContain("MTAx.not-the-fakes.token");
    expect(CredentialListOut.parse(JSON.parse((await coffer(["cred", "ls", "--json"])).stdout)).credentials.map((c) => c.ref)).toEqual(refsBefore);

    // The Discord bot's token piped on stdin: checked with the fake Discord, the channel connects.
    const added = await coffer(["channel", "add", "desk", "--kind", "discord", "--agent", "scripted"], `${dc.token}\n`);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^platform: +Discord \(discord\)$/m);
    expect(added.stdout).toMatch(new RegExp(`^bot: +@${dc.bot.username} `, "m"));
    expect(added.stdout).toMatch(/^credentials: +bot_token=discord-desk-bot-token$/m);
    const id = ChannelListOut.parse(JSON.parse((await coffer(["channel", "ls", "--json"])).stdout)).channels.find((c) => c.name === "desk")!.id;
    await dc.until(() => dc.sessions.some((s) => s.socket !== null));

    // Paired from a DM with the code `channel pair` printed (no deep link on Discord).
    const pair = await coffer(["channel", "pair", "desk"]);
    expect(pair.code, pair.stderr).toBe(0);
    const code = /^pairing code: (\S+)$/m.exec(pair.stdout)![1]!;
    expect(pair.stdout).not.toContain("open on your phone");
    expect(pair.stdout).toContain(`or send the code to @${dc.bot.username}`);
    dc.userSays(DISCORD_OWNER, code);
    await dc.until(() => dc.channelMessages(dc.dmChannel(DISCORD_OWNER)).some((m) => m.author.id === dc.bot.id && m.content.startsWith("Paired.")));
    const shown = await coffer(["channel", "show", id]);
    expect(shown.stdout).toMatch(new RegExp(`^owner: +${DISCORD_OWNER.username}, paired `, "m"));

    // Both kinds side by side, each by its display name; edit works the same on either.
    const telegramToo = await coffer(["channel", "add", "phone2", "--kind", "telegram", "--agent", "scripted", "--token-ref", "tg-cli"]);
    expect(telegramToo.code, telegramToo.stderr).toBe(0);
    const list = (await coffer(["channel", "list"])).stdout;
    expect(list).toMatch(new RegExp(`^desk +Discord +@${dc.bot.username} +\\S+ +${DISCORD_OWNER.username} +\\d+ +yes$`, "m"));
    expect(list).toMatch(/^phone2 +Telegram +@coffer_cli_test_bot /m);
    const edited = await coffer(["channel", "edit", "desk", "--model", "m-discord", "--json"]);
    expect(ChannelOut.parse(JSON.parse(edited.stdout))).toMatchObject({ kind: "discord", default_model: "m-discord", credentials: { bot_token: "discord-desk-bot-token" } });

    for (const out of [kinds, which, wrong, added, pair, shown, telegramToo, edited]) expect(out.stdout + out.stderr).not.toContain(dc.token);
    for (const name of ["desk", "phone2"]) expect((await coffer(["channel", "rm", name])).code).toBe(0);
  });
});
