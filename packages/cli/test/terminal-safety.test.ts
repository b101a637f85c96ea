/**
 * Issue 11, finding 10: what the CLI prints from the daemon is untrusted (agents write memory;
 * replies stream from a model). The real CLI, against a real daemon, must not pass terminal
 * escapes through: no OSC 52 clipboard write, no clear-screen, no carriage-return overprint.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
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
});
