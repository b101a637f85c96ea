/**
 * Claude Code turns with the REAL `claude` CLI (the Agent SDK's bundled binary) against
 * our fake Anthropic server on 127.0.0.1, through the daemon's HTTP API and SSE.
 */
import { realpath } from "node:fs/promises";
import { isTerminalEvent, type ChatEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPLY_USAGE } from "../fakes/fake-anthropic.js";
import { startAgentHarness, type AgentHarness } from "../fakes/agent-harness.js";
import { acceptance } from "../support/acceptance.js";

let h: AgentHarness<"claude_code">;
beforeAll(async () => {
  h = await startAgentHarness("claude_code");
}, 30_000);
afterAll(() => h?.close(), 30_000);

const TURN = 60_000;
const isTerminal = (e: ChatEvent) => isTerminalEvent(e);
const textOf = (m: any) => m.content.filter((b: any) => b.type === "text").map((b: any) => b.text).join("");

/** Send and wait for this turn's terminal event (the n-th terminal on the subscription). */
async function turn(sub: Awaited<ReturnType<AgentHarness<"claude_code">["daemon"]["subscribe"]>>, id: string, text: string) {
  const before = sub.events.filter((e) => isTerminal(e.event)).length;
  await h.send(id, text);
  const terminals = await sub.waitForCount(isTerminal, before + 1);
  return terminals.at(-1)!.event;
}

describe("Claude Code through the daemon", () => {
  acceptance(
    "014-owner-in-the-loop",
    "the conversation's context usage comes from the real agents: the last model call's tokens, in the model's window",
    async () => {
      const id = await h.conversation({ model: "claude-sonnet-4-5" });
      expect((await h.daemon.api.get(`/chat/conversations/${id}/context`)).body).toEqual({ context: null });
      const sub = await h.daemon.subscribe(id);
      await turn(sub, id, "hello there");
      const { context } = (await h.daemon.api.get(`/chat/conversations/${id}/context`)).body;
      expect(context).toEqual({ used_tokens: REPLY_USAGE.input_tokens + REPLY_USAGE.output_tokens, window_tokens: 200_000, updated_at: expect.any(String) });
      sub.close();
    },
    TURN,
  );

  acceptance(
    "008-agent-chat",
    "send a message and receive a streamed reply",
    async () => {
      const id = await h.conversation({ model: "claude-sonnet-4-5" });
      const sub = await h.daemon.subscribe(id);
      const done = await turn(sub, id, "hello there");
      expect(done).toEqual({
        type: "turn_done",
        prompt_tokens: REPLY_USAGE.input_tokens,
        completion_tokens: REPLY_USAGE.output_tokens,
        stop_reason: "end_turn",
        model: "claude-sonnet-4-5-20250929", // the snapshot the API answered with, as in production
      });
      const deltas = sub.events.filter((e) => e.event.type === "text_delta").map((e) => (e.event as { text: string }).text);
      expect(deltas).toEqual(["Fake ", "reply ", "to: ", "hello there"]); // streamed, and not repeated by the final message
      const [user, assistant] = await h.messages(id);
      expect(user).toMatchObject({ role: "user", content: [{ type: "text", text: "hello there" }] });
      expect(assistant).toMatchObject({ role: "assistant", status: "complete", model_id: "claude-sonnet-4-5-20250929" });
      expect(textOf(assistant)).toBe("Fake reply to: hello there");
      expect(h.storedAgentConfig(id).session_id).toMatch(/^[0-9a-f-]{36}$/);
      sub.close();
    },
    TURN,
  );

  test(
    "the second turn runs on the same warm process and the CLI sends the whole history",
    async () => {
      const id = await h.conversation({ model: "claude-sonnet-4-5" });
      const sub = await h.daemon.subscribe(id);
      await turn(sub, id, "first");
      const pid = h.provider.warmProcess(id)?.pid;
      expect(pid).toBeGreaterThan(0);
      const sessionId = h.storedAgentConfig(id).session_id;
      const seen = h.fake.requests.length;
      expect(await turn(sub, id, "second")).toMatchObject({ type: "turn_done", prompt_tokens: REPLY_USAGE.input_tokens });
      expect(h.provider.warmProcess(id)?.pid).toBe(pid);
      expect(h.storedAgentConfig(id).session_id).toBe(sessionId);
      expect(h.fake.requests.slice(seen).at(-1)!.transcript).toEqual([
        { role: "user", text: "first" },
        { role: "assistant", text: "Fake reply to: first" },
        { role: "user", text: "second" },
      ]);
      sub.close();
    },
    TURN,
  );

  test(
    "a tool turn really runs Bash in the conversation's cwd, shown as tool_call then tool_result",
    async () => {
      const cwd = await realpath(h.workDir);
      const id = await h.conversation({ cwd, model: "claude-sonnet-4-5" });
      const sub = await h.daemon.subscribe(id);
      const done = await turn(sub, id, "RUN: echo tool-ran && pwd");
      expect(done.type).toBe("turn_done");
      const types = sub.events.map((e) => e.event.type).filter((t) => t !== "queue_changed" && t !== "turn_start");
      expect(types).toEqual(["tool_call", "tool_result", "text_delta", "text_delta", "turn_done"]);
      const call = sub.events.find((e) => e.event.type === "tool_call")!.event as any;
      expect(call).toMatchObject({ tool_name: "Bash", tool_input: { command: "echo tool-ran && pwd" } });
      const result = sub.events.find((e) => e.event.type === "tool_result")!.event as any;
      expect(result).toMatchObject({ tool_use_id: call.tool_use_id, tool_name: "Bash", output: `tool-ran\n${cwd}`, error: null });
      const assistant = (await h.messages(id))[1];
      expect(assistant.content.map((b: any) => b.type)).toEqual(["tool_use", "tool_result", "text"]);
      expect(textOf(assistant)).toBe(`Tool said: tool-ran\n${cwd}`);
      // Two model calls in one turn: the per-run usage sums them.
      expect(done).toMatchObject({ prompt_tokens: 2 * REPLY_USAGE.input_tokens, completion_tokens: 2 * REPLY_USAGE.output_tokens });
      sub.close();
    },
    TURN,
  );

  acceptance(
    "008-agent-chat",
    "stop a running turn",
    async () => {
      const id = await h.conversation({ model: "claude-sonnet-4-5" });
      const sub = await h.daemon.subscribe(id);
      await h.send(id, "HOLD please");
      await sub.waitForCount((e) => e.type === "text_delta", 2);
      const closedBefore = h.fake.closedByClient;
      const stop = await h.daemon.api.post(`/chat/conversations/${id}/interrupt`);
      expect(stop.status).toBe(204);
      const done = await sub.waitFor(isTerminal);
      expect(done.event).toMatchObject({ type: "turn_done", stop_reason: "interrupted" });
      expect(h.fake.closedByClient).toBeGreaterThan(closedBefore); // the CLI really stopped its request
      const [, partial] = await h.messages(id);
      expect(partial.status).toBe("complete");
      expect(textOf(partial)).toBe("partial reply "); // kept once, not doubled by the aborted final message
      // The conversation takes a new turn at once, on the same session.
      expect(await turn(sub, id, "after the stop")).toMatchObject({ type: "turn_done" });
      expect(h.fake.requests.at(-1)!.transcript.map((m) => m.text)).toEqual([
        "HOLD please",
        "partial reply",
        "[Request interrupted by user] after the stop",
      ]);
      sub.close();
    },
    TURN,
  );

  test(
    "after a daemon restart the turn resumes the stored session: the fake sees the earlier turns",
    async () => {
      const id = await h.conversation({ model: "claude-sonnet-4-5" });
      const sub = await h.daemon.subscribe(id);
      await turn(sub, id, "remember me");
      const sessionId = h.storedAgentConfig(id).session_id;
      sub.close();
      await h.restart();
      const again = await h.daemon.subscribe(id);
      expect(await turn(again, id, "still there?")).toMatchObject({ type: "turn_done" });
      expect(h.storedAgentConfig(id).session_id).toBe(sessionId);
      expect(h.fake.requests.at(-1)!.transcript).toEqual([
        { role: "user", text: "remember me" },
        { role: "assistant", text: "Fake reply to: remember me" },
        { role: "user", text: "still there?" },
      ]);
      again.close();
    },
    TURN,
  );

  test(
    "an idle warm process is evicted; the next turn starts cold and resumes the session",
    async () => {
      const idle = await startAgentHarness("claude_code", { env: { COFFER_CLAUDE_IDLE_SECONDS: "0.5" } });
      try {
        const id = await idle.conversation({ model: "claude-sonnet-4-5" });
        const sub = await idle.daemon.subscribe(id);
        await idle.send(id, "first");
        await sub.waitFor(isTerminal);
        const warm = idle.provider.warmProcess(id)!;
        await warm.exited; // the idle timer closed it
        await idle.send(id, "second");
        await sub.waitForCount(isTerminal, 2);
        expect(idle.provider.warmProcess(id)?.pid).not.toBe(warm.pid);
        expect(idle.fake.requests.at(-1)!.transcript.map((m) => m.text)).toEqual(["first", "Fake reply to: first", "second"]);
        sub.close();
      } finally {
        await idle.close();
      }
    },
    TURN,
  );

  test(
    "deleting a conversation ends its warm process",
    async () => {
      const id = await h.conversation({ model: "claude-sonnet-4-5" });
      const sub = await h.daemon.subscribe(id);
      await turn(sub, id, "soon gone");
      const warm = h.provider.warmProcess(id)!;
      expect((await h.daemon.api.delete(`/chat/conversations/${id}`)).status).toBe(204);
      await warm.exited;
      expect(h.provider.warmProcess(id)).toBeUndefined();
      sub.close();
    },
    TURN,
  );
});
