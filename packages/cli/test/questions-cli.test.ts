import { afterAll, beforeAll, expect } from "vitest";
import type { Question } from "@coffer/protocol";
import { acceptance } from "../../daemon/test/support/acceptance.js";
import { script } from "../../daemon/test/support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { cofferWatching } from "./support/run-cli.js";

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

const coffer = (args: string[], onStdout?: (all: string) => void) => cofferWatching(t, args, onStdout);

const PICK: Question = {
  header: "Colour",
  text: "Which colour?",
  options: [
    { label: "Red", description: "warm" },
    { label: "Blue", description: "cool" },
  ],
  multi_select: false,
  allow_free_text: true,
};

acceptance(
  "014-owner-in-the-loop",
  "the CLI shows the question with numbered options and answers it by number",
  async () => {
    const id = (await t.api.post("/chat/conversations", { agent_key: "scripted", agent_config: {} })).body.id as string;
    let sawQuestion!: (qid: string) => void;
    const question = new Promise<string>((r) => (sawQuestion = r));
    const sending = coffer(["chat", "send", id, script({ ask: { questions: [PICK] } })], (out) => {
      const m = /answer: coffer chat answer <conversation> (\S+) --option/.exec(out);
      if (m) sawQuestion(m[1]!);
    });
    const qid = await question;
    const answered = await coffer(["chat", "answer", id, qid, "--option", "2", "--text", "navy", "please"]);
    expect(answered, answered.stderr).toMatchObject({ code: 0, stdout: "answered\n" });
    const sent = await sending;
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toContain("waiting for you");
    expect(sent.stdout).toContain("[Colour] Which colour? (choose one, or write your own)");
    expect(sent.stdout).toContain("  1. Red — warm\n  2. Blue — cool\n");
    expect(sent.stdout).toContain(`answers: ${JSON.stringify([{ selected: ["Blue"], text: "navy please" }])}`);
    // The second answer loses, with the winner in its message's details.
    const again = await coffer(["chat", "answer", id, qid, "--option", "1"]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain("QUESTION_ALREADY_ANSWERED");
    expect(again.stderr).toContain("Answered from the CLI: Blue, “navy please”");
    expect((await coffer(["chat", "answer", id, qid, "--option", "3"])).stderr).toContain("option must be 1..2");
    // `chat show` keeps the question with its answer and where it came from, as the page does.
    const shown = await coffer(["chat", "show", id]);
    expect(shown.stdout).toContain("  ❓ [Colour] Which colour?\n     → Blue, “navy please” · answered from the CLI\n");
  },
  90_000,
);
