/**
 * An agent's own question tool with the REAL CLIs, each against its fake model server: Claude
 * Code's AskUserQuestion (the CLI enables it only when the host answers through canUseTool and
 * sends the answer to the model as the tool's result) and Codex's request_user_input (the
 * app-server asks Coffer through item/tool/requestUserInput and the answer is the call's
 * output). Coffer holds the call while the owner decides. One scenario per agent from the
 * shared rig; what differs per agent is in PER_AGENT.
 */
import { afterAll, beforeAll, describe, expect } from "vitest";
import { AGENTS, startAgentHarness, textOf, type AgentHarness, type AgentKey } from "../fakes/agent-harness.js";
import type { FakeAnthropic } from "../fakes/fake-anthropic.js";
import type { FakeOpenAiResponses } from "../fakes/fake-openai-responses.js";
import { acceptance } from "../support/acceptance.js";
import { liveContent } from "../support/live-fold.js";
import { askPrompt } from "../support/question-fixture.js";

const TURN = 120_000;
const SPEC = "014-owner-in-the-loop";

interface AgentQuestions {
  /** The acceptance titles, as the catalogue names them for this agent. */
  readonly waitsTitle: string;
  readonly stopTitle: string;
  /** The fake model's reply to a plain message. */
  readonly reply: (text: string) => string;
  /** The tool outputs the fake model received in its request number `i`. */
  readonly toolOutputs: (h: AgentHarness, i: number) => string[];
  /** Claude Code's tool result repeats the question; Codex's output carries the answers only. */
  readonly outputRepeatsQuestion: boolean;
  /** The tool call the stored question stands in place of (null: the agent asked outside a tool call). */
  readonly askTool: string | null;
}

const PER_AGENT: Record<AgentKey, AgentQuestions> = {
  claude_code: {
    waitsTitle: "Claude Code's AskUserQuestion waits for the owner; the answer reaches the model once as the tool result",
    stopTitle: "stop while Claude Code waits for an answer: the question is cancelled and the next turn runs",
    reply: (text) => `Fake reply to: ${text}`,
    toolOutputs: (h, i) => (h.fake as FakeAnthropic).requests.at(i)!.toolResults.map((r) => r.text),
    outputRepeatsQuestion: true,
    askTool: "AskUserQuestion",
  },
  codex: {
    waitsTitle: "Codex's request_user_input waits for the owner; the answer reaches the model once as the call's output",
    stopTitle: "stop while Codex waits for an answer: the question is cancelled and the next turn runs",
    reply: (text) => `Echo: ${text}`,
    toolOutputs: (h, i) =>
      (h.fake as FakeOpenAiResponses).requests
        .at(i)!
        .input.filter((item) => item.type === "function_call_output")
        .map((item) => JSON.stringify((item as { output: unknown }).output)),
    outputRepeatsQuestion: false,
    askTool: null,
  },
};

describe.each(AGENTS)("%s (real CLI): questions", (agent) => {
  const my = PER_AGENT[agent];
  let h: AgentHarness;
  beforeAll(async () => {
    h = await startAgentHarness(agent);
  }, 60_000);
  afterAll(() => h?.close(), 60_000);

  acceptance(
    SPEC,
    my.waitsTitle,
    async () => {
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      await h.send(id, askPrompt(agent));
      const first = await sub.waitFor((e) => e.type === "question" || e.type === "turn_done" || e.type === "turn_error");
      expect(first.event.type, JSON.stringify(first.event)).toBe("question");
      const asked = first.event as any;
      expect(asked.questions).toEqual([
        {
          header: "Colour",
          text: "Which colour should the button be?",
          options: [
            { label: "Red", description: "warm and loud" },
            { label: "Blue", description: "calm" },
          ],
          multi_select: false,
          allow_free_text: true,
        },
      ]);
      // Held: the model has not been asked again while the owner decides.
      const before = h.fake.requests.length;
      expect(my.toolOutputs(h, -1)).toEqual([]);

      const res = await h.daemon.api.post(`/chat/conversations/${id}/questions/${asked.question_id}/answer`, {
        answers: [{ selected: ["Blue"] }],
        by: "web",
      });
      expect(res.status).toBe(204);
      expect((await sub.waitFor((e) => e.type === "turn_done" || e.type === "turn_error")).event.type).toBe("turn_done");

      expect(h.fake.requests.length - before).toBe(1);
      const outputs = my.toolOutputs(h, before);
      expect(outputs).toHaveLength(1);
      if (my.outputRepeatsQuestion) expect(outputs[0]).toContain("Which colour should the button be?");
      expect(outputs[0]).toContain("Blue");
      expect(outputs[0]).not.toContain("Red");
      expect(textOf((await h.messages(id)).at(-1))).toContain("Tool said: ");
      expect(sub.types().filter((x) => x === "question_answered")).toHaveLength(1);
      sub.close();
    },
    TURN,
  );

  acceptance(
    SPEC,
    my.stopTitle,
    async () => {
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      await h.send(id, askPrompt(agent));
      const qid = ((await sub.waitFor((e) => e.type === "question")).event as any).question_id;
      expect((await h.daemon.api.post(`/chat/conversations/${id}/interrupt`)).status).toBe(204);
      expect((await sub.waitFor((e) => e.type === "question_answered")).event).toEqual({ type: "question_answered", question_id: qid, answers: null });
      expect((await sub.waitFor((e) => e.type === "turn_done" || e.type === "turn_error")).event).toMatchObject({ type: "turn_done", stop_reason: "interrupted" });
      await h.send(id, "after the stop");
      const ends = await sub.waitForCount((e) => e.type === "turn_done" || e.type === "turn_error", 2);
      expect(ends[1]!.event.type).toBe("turn_done");
      expect(textOf((await h.messages(id)).at(-1))).toBe(my.reply("after the stop"));
      sub.close();
    },
    TURN,
  );

  acceptance(
    "022-screens-true",
    "an answered question stays in the thread with its answer, who answered and from which surface, live and after reload, for both agents",
    async () => {
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      await h.send(id, askPrompt(agent));
      const asked = (await sub.waitFor((e) => e.type === "question")).event as any;
      // The daemon token answers: the surface is what the daemon verified (the CLI), not the body's word.
      const res = await h.daemon.api.post(`/chat/conversations/${id}/questions/${asked.question_id}/answer`, { answers: [{ selected: ["Blue"], text: "navy" }], by: "web" });
      expect(res.status).toBe(204);
      await sub.waitFor((e) => e.type === "turn_done" || e.type === "turn_error");
      // After a reload: the stored reply keeps the question, the answer and its surface.
      const stored = (await h.messages(id)).at(-1);
      const block = stored.content.find((b: any) => b.type === "question");
      expect(block).toMatchObject({
        type: "question",
        question_id: asked.question_id,
        questions: [{ header: "Colour", text: "Which colour should the button be?", options: [{ label: "Red" }, { label: "Blue" }] }],
        state: "answered",
        answers: [{ selected: ["Blue"], text: "navy" }],
        by: "cli",
      });
      // Claude asked through its AskUserQuestion tool call: the question stands in its place. Codex asked outside one.
      const askCall = my.askTool && stored.content.find((b: any) => b.type === "tool_use" && b.tool_name === my.askTool);
      expect(block.tool_use_id).toBe(askCall ? askCall.tool_use_id : null);
      if (my.askTool) expect(askCall).toBeTruthy();
      // Live: the events folded as the page folds them are the stored reply, block for block.
      expect(liveContent(sub.events)).toEqual(stored.content);
      // The reply goes on after the question.
      expect(stored.content.at(-1)).toMatchObject({ type: "text" });
      expect(stored.content.indexOf(block)).toBeLessThan(stored.content.length - 1);
      sub.close();
    },
    TURN,
  );
});
