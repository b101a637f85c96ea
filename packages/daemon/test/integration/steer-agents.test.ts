/**
 * Steering with the REAL agent CLIs against their fake model servers. The turn runs a tool
 * that blocks on a FIFO (our gate): the steer lands while the tool runs, then the test opens
 * the FIFO, and the fake's record shows where the steered text reached the model.
 */
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ChatEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AGENTS, startAgentHarness, textOf, type AgentHarness, type AgentKey } from "../fakes/agent-harness.js";
import type { FakeAnthropic } from "../fakes/fake-anthropic.js";
import type { FakeOpenAiResponses } from "../fakes/fake-openai-responses.js";
import { acceptance } from "../support/acceptance.js";

const TURN = 120_000;
const isTerminal = (e: ChatEvent) => e.type === "turn_done" || e.type === "turn_error";
const TITLE: Record<AgentKey, string> = {
  claude_code: "claude code: a steered message reaches the next model request exactly once",
  codex: "codex: a steered message reaches the next model request exactly once",
};

/**
 * What each model request carried from the user's side (user messages, tool results), as
 * sent, one string per request: the model's own echoes of earlier replies are left out.
 */
function requestBodies(agent: AgentKey, fake: FakeAnthropic | FakeOpenAiResponses): string[] {
  return agent === "claude_code"
    ? (fake as FakeAnthropic).requests.map((r) =>
        JSON.stringify((JSON.parse(r.raw) as { messages: { role: string }[] }).messages.filter((m) => m.role === "user")),
      )
    : (fake as FakeOpenAiResponses).requests.map((r) => JSON.stringify(r.input.filter((i) => i.type !== "message" || i.role !== "assistant")));
}
const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe.each(AGENTS)("%s (real CLI): steering", (agent) => {
  let h: AgentHarness;
  beforeAll(async () => {
    h = await startAgentHarness(agent);
  }, 60_000);
  afterAll(() => h?.close(), 60_000);

  acceptance(
    "014-owner-in-the-loop",
    TITLE[agent],
    async () => {
      const fifo = join(h.workDir, `gate-${agent}`);
      execFileSync("mkfifo", [fifo]);
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      await h.send(id, agent === "claude_code" ? `RUN: cat ${fifo}` : `USE_TOOL cat ${fifo}`);
      // Both agents report the tool call as it starts (Codex: its item/started).
      await sub.waitFor((e) => e.type === "tool_call");
      const before = h.fake.requests.length;
      const marker = `STEER-${agent}-7f3a`;
      const ack = await h.daemon.api.post(`/chat/conversations/${id}/messages`, { text: `also say ${marker}`, delivery: "steer" });
      expect(ack).toMatchObject({ status: 202, body: { queued: false, steered: true } });
      // The tool is still blocked on the FIFO: the model has not been asked anything since.
      expect(h.fake.requests.length).toBe(before);
      await writeFile(fifo, "tool-output\n");
      const end = await sub.waitFor(isTerminal);
      expect(end.event.type).toBe("turn_done");

      const bodies = requestBodies(agent, h.fake);
      // The very next model request carries the steered text, once; none before it did.
      expect(bodies.slice(0, before).some((b) => b.includes(marker))).toBe(false);
      expect(occurrences(bodies[before]!, marker)).toBe(1);
      expect(bodies[before]).toContain("tool-output");
      // One turn for us: one turn_start, the reply split around the steered message.
      expect(sub.types().filter((x) => x === "turn_start")).toHaveLength(1);
      expect(sub.types()).toContain("steered");
      const thread = (await h.messages(id)).map((m) => ({ role: m.role, text: textOf(m), stop: m.stop_reason ?? null }));
      expect(thread.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
      expect(thread[1]!.stop).toBe("steered");
      expect(thread[2]!.text).toBe(`also say ${marker}`);

      // Never twice: the next turn's request holds the history with the steered text once.
      await h.send(id, "after the steer");
      await sub.waitForCount(isTerminal, 2);
      const last = requestBodies(agent, h.fake).at(-1)!;
      expect(last).toContain("after the steer");
      expect(occurrences(last, marker)).toBe(1);
      expect(sub.types().filter((x) => x === "steer_fallback")).toHaveLength(0);
      sub.close();
    },
    TURN,
  );

  if (agent === "claude_code") {
    test(
      "claude code: a steer during a reply with no tool step left runs right after it, as the same turn",
      async () => {
        const id = await h.conversation();
        const sub = await h.daemon.subscribe(id);
        await h.send(id, "GATE steer-text");
        await sub.waitFor((e) => e.type === "text_delta");
        const marker = "STEER-late-91c2";
        const ack = await h.daemon.api.post(`/chat/conversations/${id}/messages`, { text: marker, delivery: "steer" });
        expect(ack.body).toMatchObject({ queued: false, steered: true });
        const before = h.fake.requests.length;
        h.fake.open("steer-text");
        const end = await sub.waitFor(isTerminal);
        expect(end.event.type).toBe("turn_done");
        // The CLI answered the gated reply, then asked the model about the steered text: one request, once.
        const bodies = requestBodies(agent, h.fake);
        expect(bodies).toHaveLength(before + 1);
        expect(occurrences(bodies[before]!, marker)).toBe(1);
        // The rest of the gated reply ("released") came after the steer, so it opens the second part.
        expect(textOf((await h.messages(id)).at(-1)!)).toBe(`releasedFake reply to: ${marker}`);
        // The swallowed result did not leak into the next turn: it answers its own message.
        await h.send(id, "next one");
        await sub.waitForCount(isTerminal, 2);
        expect(textOf((await h.messages(id)).at(-1)!)).toBe("Fake reply to: next one");
        expect(sub.types().filter((x) => x === "turn_start")).toHaveLength(2);
        sub.close();
      },
      TURN,
    );
  }
});
