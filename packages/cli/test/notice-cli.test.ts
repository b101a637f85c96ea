/**
 * Coffer's one-line notice (a lost agent session restarted with the conversation so far) in the
 * terminal: live in `coffer chat send` and kept in `coffer chat show`. The scripted agent yields
 * the notice as the Claude and Codex adapters do (agent-session-keeper.test.ts proves those).
 */
import { afterAll, beforeAll, describe, expect } from "vitest";
import { acceptance } from "../../daemon/test/support/acceptance.js";
import { script } from "../../daemon/test/support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { cofferAgainst } from "./support/run-cli.js";

const NOTICE = "The agent had lost this conversation's session; it was restarted with the conversation so far.";
let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

describe("coffer chat: the reseeded notice", () => {
  acceptance("024-agent-sessions", "the one-line notice reaches coffer chat (live and in chat show) and the Telegram chat", async () => {
    const id = await t.conversation();
    const sent = await cofferAgainst(t, ["chat", "send", id, script({ notice: NOTICE }, { text: "Zorro, as you said." })]);
    expect(sent.code).toBe(0);
    expect(sent.stdout).toContain(`  ⓘ ${NOTICE}\n`);
    expect(sent.stdout.indexOf(NOTICE)).toBeLessThan(sent.stdout.indexOf("Zorro, as you said."));
    const shown = await cofferAgainst(t, ["chat", "show", id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`  ⓘ ${NOTICE}\nZorro, as you said.`);
    // Once (the owner message above it is the script that holds the same words).
    expect(shown.stdout.split(`ⓘ ${NOTICE}`)).toHaveLength(2);
  });
});
