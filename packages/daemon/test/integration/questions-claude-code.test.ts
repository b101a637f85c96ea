/**
 * AskUserQuestion with the REAL `claude` CLI against the fake Anthropic server: the CLI
 * enables the tool only when the host answers through canUseTool, holds the call while the
 * owner decides, and sends the answer to the model as the tool's result.
 */
import { afterAll, beforeAll, describe, expect } from "vitest";
import { startAgentHarness, textOf, type AgentHarness } from "../fakes/agent-harness.js";
import { acceptance } from "../support/acceptance.js";
import { liveContent } from "../support/live-fold.js";

const TURN = 120_000;
const SPEC = "014-owner-in-the-loop";

const ASKED = [
  {
    question: "Which colour should the button be?",
    header: "Colour",
    options: [
      { label: "Red", description: "warm and loud" },
      { label: "Blue", description: "calm" },
    ],
    multiSelect: false,
  },
];

describe("claude_code (real CLI): questions", () => {
  let h: AgentHarness<"claude_code">;
  beforeAll(async () => {
    h = await startAgentHarness("claude_code");
  }, 60_000);
  afterAll(() => h?.close(), 60_000);

  acceptance(
    SPEC,
    "Claude Code's AskUserQuestion waits for the owner; the answer reaches the model once as the tool result",
    async () => {
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      await h.send(id, `ASK: ${JSON.stringify(ASKED)}`);
      const asked = (await sub.waitFor((e) => e.type === "question")).event as any;
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
      expect(h.fake.requests.at(-1)!.toolResults).toEqual([]);

      const res = await h.daemon.api.post(`/chat/conversations/${id}/questions/${asked.question_id}/answer`, {
        answers: [{ selected: ["Blue"] }],
        by: "web",
      });
      expect(res.status).toBe(204);
      expect((await sub.waitFor((e) => e.type === "turn_done" || e.type === "turn_error")).event.type).toBe("turn_done");

      const after = h.fake.requests.slice(before);
      expect(after).toHaveLength(1);
      const results = after[0]!.toolResults;
      expect(results).toHaveLength(1);
      expect(results[0]!.text).toContain("Which colour should the button be?");
      expect(results[0]!.text).toContain("Blue");
      expect(results[0]!.text).not.toContain("Red");
      const reply = (await h.messages(id)).at(-1);
      expect(textOf(reply)).toContain("Tool said: ");
      expect(sub.types().filter((x) => x === "question_answered")).toHaveLength(1);
      sub.close();
    },
    TURN,
  );

  acceptance(
    SPEC,
    "stop while Claude Code waits for an answer: the question is cancelled and the next turn runs",
    async () => {
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      await h.send(id, `ASK: ${JSON.stringify(ASKED)}`);
      const qid = ((await sub.waitFor((e) => e.type === "question")).event as any).question_id;
      expect((await h.daemon.api.post(`/chat/conversations/${id}/interrupt`)).status).toBe(204);
      expect((await sub.waitFor((e) => e.type === "question_answered")).event).toEqual({ type: "question_answered", question_id: qid, answers: null });
      expect((await sub.waitFor((e) => e.type === "turn_done" || e.type === "turn_error")).event).toMatchObject({ type: "turn_done", stop_reason: "interrupted" });
      await h.send(id, "after the stop");
      const ends = await sub.waitForCount((e) => e.type === "turn_done" || e.type === "turn_error", 2);
      expect(ends[1]!.event.type).toBe("turn_done");
      expect(textOf((await h.messages(id)).at(-1))).toBe("Fake reply to: after the stop");
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
      await h.send(id, `ASK: ${JSON.stringify(ASKED)}`);
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
      // Claude asked through its AskUserQuestion tool call: the question stands in its place.
      expect(block.tool_use_id).toBe(stored.content.find((b: any) => b.type === "tool_use" && b.tool_name === "AskUserQuestion").tool_use_id);
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
