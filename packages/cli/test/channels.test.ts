import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChannelOut } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { localTime, pairingLine, pairingText, qrCode } from "../src/commands/channels.js";
import { cofferWithoutDaemon } from "./support/run-cli.js";

// `coffer channel` without a daemon: what the CLI itself decides (usage, help, the pairing text).
// The daemon-backed cases are in channels-daemon.test.ts.

let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "coffer-cli-channels-"));
});
afterAll(() => rm(home, { recursive: true, force: true }));

const coffer = (args: string[]) => cofferWithoutDaemon(home, args);
const add = ["channel", "add", "phone"];

describe("coffer channel, before the daemon is asked", { timeout: 60_000 }, () => {
  test("add refuses missing or malformed flags with USAGE (exit 4) and names the flag; the daemon is never reached", async () => {
    // A command that reached for the daemon would exit 5 here (no daemon runs in this data dir).
    const cases: [string[], RegExp][] = [
      [["--token-ref", "tg-bot"], /--agent <key> is required/],
      // Which kinds exist is the daemon's to say (UNKNOWN_CHANNEL_KIND); the CLI checks the name's shape.
      [["--token-ref", "tg-bot", "--agent", "claude_code", "--kind", "Not A Kind"], /invalid --kind "Not A Kind": a platform name/],
      [["--token-ref", "tg-bot", "--agent", "claude_code", "--cwd", "relative/dir"], /invalid --cwd "relative\/dir": an absolute path/],
      [["--token-ref", "not a ref", "--agent", "claude_code"], /invalid --token-ref "not a ref": letters, digits/],
      [["--token-ref", "tg-bot", "--agent", "Not-A-Key"], /invalid --agent "Not-A-Key"/],
      // The credential flags' shape: a declared name, and for a ref one that can be stored.
      [["--agent", "claude_code", "--credential-ref", "bot_token"], /invalid --credential-ref "bot_token": give name=ref/],
      [["--agent", "claude_code", "--credential-ref", "bot_token=not a ref"], /invalid --credential-ref "bot_token=not a ref"/],
      [["--agent", "claude_code", "--credential", "Bot Token=x"], /invalid --credential "Bot Token=…": give name=value/],
      [["--agent", "claude_code", "--credential-ref", "bot_token=a", "--credential", "bot_token"], /bot_token is given twice/],
    ];
    for (const [flags, message] of cases) {
      const r = await coffer([...add, ...flags]);
      expect(r, flags.join(" ")).toMatchObject({ code: 4, stdout: "" });
      expect(r.stderr, flags.join(" ")).toMatch(message);
      expect(r.stderr, flags.join(" ")).toMatch(/\[USAGE\]\n$/);
    }
  });

  test("well-formed flags get as far as the daemon (so the checks above are the CLI's own)", async () => {
    for (const flags of [
      ["--token-ref", "tg-bot", "--agent", "claude_code", "--cwd", "/srv/work", "--model", "m1"],
      // No credential at all: which ones the platform needs is the daemon's to say, so it is asked first.
      ["--agent", "claude_code"],
      ["--agent", "claude_code", "--credential", "bot_token", "--credential-ref", "app=app-ref", "--kind", "discord"],
    ]) {
      const r = await coffer([...add, ...flags]);
      expect(r.code, flags.join(" ")).toBe(5);
      expect(r.stderr).toMatch(/\[DAEMON_UNREACHABLE\]/);
    }
  });

  test("edit refuses nothing to change, or a value and its clearing at once, before the daemon is asked", async () => {
    const cases: [string[], RegExp][] = [
      [[], /nothing to change/],
      [["--cwd", "/srv", "--clear-cwd"], /give --cwd or --clear-cwd, not both/],
      [["--model", "m", "--clear-model"], /give --model or --clear-model, not both/],
      [["--name", ""], /invalid --name ""/],
      [["--cwd", "rel"], /invalid --cwd "rel": an absolute path/],
    ];
    for (const [flags, message] of cases) {
      const r = await coffer(["channel", "edit", "phone", ...flags]);
      expect(r, flags.join(" ")).toMatchObject({ code: 4, stdout: "" });
      expect(r.stderr, flags.join(" ")).toMatch(message);
    }
    expect((await coffer(["channel", "edit", "phone", "--clear-model"])).code).toBe(5);
  });

  test("help lists every subcommand; a missing <name|id> is a commander usage error (exit 2)", async () => {
    const help = await coffer(["channel", "--help"]);
    expect(help.code).toBe(0);
    for (const sub of ["add", "kinds", "ls\\|list", "show", "edit", "pair", "rm", "enable", "disable"]) expect(help.stdout).toMatch(new RegExp(`^  ${sub} `, "m"));
    const addHelp = await coffer(["channel", "add", "--help"]);
    for (const flag of ["--token-ref <ref>", "--credential-ref <name=ref>", "--credential <name[=value]>", "--agent <key>", "--cwd <dir>", "--model <model>", "--kind <kind>", "--json"]) {
      expect(addHelp.stdout).toContain(flag);
    }
    const editHelp = await coffer(["channel", "edit", "--help"]);
    for (const flag of ["--name <name>", "--token-ref <ref>", "--credential-ref <name=ref>", "--credential <name[=value]>", "--clear-cwd", "--clear-model"]) {
      expect(editHelp.stdout).toContain(flag);
    }
    for (const sub of ["show", "edit", "pair", "rm", "enable", "disable"]) {
      const r = await coffer(["channel", sub]);
      expect(r.code, sub).toBe(2);
      expect(r.stderr, sub).toContain("missing required argument 'channel'");
    }
  });
});

const channel = (over: Partial<ChannelOut> = {}): ChannelOut => ({
  id: "ch_1",
  kind: "telegram",
  name: "phone",
  credentials: { bot_token: "tg-bot" },
  bot_token_ref: "tg-bot",
  default_agent: "claude_code",
  default_cwd: null,
  default_model: null,
  enabled: true,
  bot: { username: "coffer_test_bot", name: "Coffer Test" },
  owner: null,
  pairing: null,
  status: { state: "polling", last_error: null, last_error_at: null },
  counts: { messages_in: 0, messages_out: 0, strangers_ignored: 0, outbox: 0, conversations: 0 },
  created_at: "2026-12-02T19:00:00.000Z",
  updated_at: "2026-12-02T19:00:00.000Z",
  ...over,
});

describe("the pairing text", () => {
  const now = new Date("2026-12-02T19:00:00.000Z");
  const pairing = { code: "ABCD2345", expires_at: "2026-12-02T20:00:00.000Z", deep_link: "https://t.me/coffer_test_bot?start=ABCD2345" };

  test("code, local expiry with its validity in words, the deep link and the bot to send it to", () => {
    expect(pairingText(pairing, channel(), now)).toBe(
      [
        "pairing code: ABCD2345",
        `expires:      ${localTime(pairing.expires_at)} (valid 1 hour)`,
        "open on your phone: https://t.me/coffer_test_bot?start=ABCD2345",
        "or send the code to @coffer_test_bot",
        "Single use: whoever sends it becomes the channel's only owner.",
        "",
      ].join("\n"),
    );
    // Minutes once less than a whole hour is left.
    expect(pairingText(pairing, channel(), new Date("2026-12-02T19:35:10.000Z"))).toContain("(valid 25 minutes)");
  });

  test("no deep link and no bot yet: the code alone, still sendable", () => {
    const text = pairingText({ ...pairing, deep_link: null }, channel({ bot: null }), now);
    expect(text).not.toContain("open on your phone");
    expect(text).toContain("or send the code to the channel's bot");
  });

  test("localTime is this machine's wall clock, minutes precision", () => {
    const d = new Date(pairing.expires_at);
    const two = (n: number) => String(n).padStart(2, "0");
    expect(localTime(pairing.expires_at)).toBe(`${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`);
  });

  test("the QR code is terminal block art that depends on the link", async () => {
    const a = await qrCode("https://t.me/coffer_test_bot?start=ABCD2345");
    const b = await qrCode("https://t.me/coffer_test_bot?start=WXYZ6789");
    expect(a).toMatch(/[█▀▄]/);
    expect(a.split("\n").length).toBeGreaterThan(10);
    expect(a).not.toBe(b);
  });
});

describe("the pairing code's state in `channel show`", () => {
  const expires = "2026-12-02T20:00:00.000Z";
  test("a live code waits; none once used", () => {
    expect(pairingLine(channel())).toBe("none waiting");
    expect(pairingLine(channel({ pairing: { state: "live", expires_at: expires, refused_at: null } }))).toBe(`waiting, until ${localTime(expires)}`);
  });

  test("an expired or voided code is said out loud, with a late attempt and the way out", () => {
    const expired = pairingLine(channel({ pairing: { state: "expired", expires_at: expires, refused_at: "2026-12-02T20:05:00.000Z" } }));
    expect(expired).toBe(
      `expired at ${localTime(expires)}; it was sent at ${localTime("2026-12-02T20:05:00.000Z")} and paired nobody: get a new one with \`coffer channel pair phone\``,
    );
    const voided = pairingLine(channel({ pairing: { state: "voided", expires_at: expires, refused_at: null } }));
    expect(voided).toMatch(/^voided \(too many wrong guesses from strangers\): get a new one/);
  });
});
