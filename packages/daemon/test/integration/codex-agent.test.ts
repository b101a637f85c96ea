/**
 * Codex turns through the whole daemon (HTTP + SSE) with the REAL `codex app-server`
 * against our fake Responses server on 127.0.0.1.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isTerminalEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { codexChildren, startAgentHarness, textOf, type AgentHarness } from "../fakes/agent-harness.js";
import { FAKE_DEFAULT_MODEL } from "../fakes/codex-home.js";
import { FAKE_USAGE, conversationTexts } from "../fakes/fake-openai-responses.js";

let h: AgentHarness<"codex">;
beforeAll(async () => {
  h = await startAgentHarness("codex");
}, 30_000);
afterAll(() => h?.close());

const messages = async (id: string) => (await h.daemon.api.get(`/chat/conversations/${id}/messages`)).body.messages as any[];

describe("Codex on the shared app-server", () => {
  test("the conversation's context usage comes from the real codex: the last model call's tokens and the model's window", async () => {
    const id = await h.conversation();
    const sub = await h.daemon.subscribe(id);
    await h.send(id, "hello context");
    await sub.waitFor(isTerminalEvent);
    const { context } = (await h.daemon.api.get(`/chat/conversations/${id}/context`)).body;
    expect(context).toEqual({ used_tokens: FAKE_USAGE.input + FAKE_USAGE.output, window_tokens: expect.any(Number), updated_at: expect.any(String) });
    sub.close();
  }, 30_000);

  acceptance(
    "008-agent-chat",
    "send a message and receive a streamed reply",
    async () => {
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      await h.send(id, "hello codex");
      const done = await sub.waitFor(isTerminalEvent);
      // The fake, like the API, answered with a dated snapshot (response.model); Codex does not
      // pass that on, so what Coffer records and shows is the model the turn was started with.
      expect(h.fake.requests.at(-1)!.model).toBe(FAKE_DEFAULT_MODEL);
      expect(done.event).toMatchObject({ type: "turn_done", stop_reason: "end_turn", model: FAKE_DEFAULT_MODEL });
      const deltas = sub.events.filter((e) => e.event.type === "text_delta").map((e) => (e.event as any).text);
      expect(deltas).toEqual(["Echo: ", "hello ", "codex"]);
      const [user, assistant] = await messages(id);
      expect(user).toMatchObject({ role: "user", content: [{ type: "text", text: "hello codex" }] });
      expect(assistant).toMatchObject({ role: "assistant", status: "complete", content: [{ type: "text", text: "Echo: hello codex" }] });
      expect(h.storedAgentConfig(id).session_id).toEqual(expect.any(String));
      sub.close();
    },
    30_000,
  );

  acceptance(
    "008-agent-chat",
    "token usage and audit",
    async () => {
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      await h.send(id, "count my tokens");
      const done = await sub.waitFor((e) => e.type === "turn_done");
      expect(done.event).toMatchObject({ prompt_tokens: FAKE_USAGE.input, completion_tokens: FAKE_USAGE.output });
      const assistant = (await messages(id))[1];
      expect(assistant).toMatchObject({ prompt_tokens: FAKE_USAGE.input, completion_tokens: FAKE_USAGE.output, model_id: FAKE_DEFAULT_MODEL });
      const audit = h.auditRows("chat_turn_completed").find((r) => r.details.conversation_id === id);
      expect(audit).toMatchObject({
        actor: "agent",
        details: { status: "complete", prompt_tokens: FAKE_USAGE.input, completion_tokens: FAKE_USAGE.output, model_id: FAKE_DEFAULT_MODEL },
      });
      sub.close();
    },
    30_000,
  );

  test("a tool turn really runs the command in the conversation's cwd", async () => {
    const cwd = h.workDir;
    const id = await h.conversation({ cwd });
    const sub = await h.daemon.subscribe(id);
    await h.send(id, "USE_TOOL pwd > where.txt && echo tool-ran");
    const done = await sub.waitFor(isTerminalEvent);
    expect(done.event.type).toBe("turn_done");
    expect(readFileSync(join(cwd, "where.txt"), "utf8").trim()).toBe(cwd);
    const call = sub.events.find((e) => e.event.type === "tool_call")!.event as any;
    const result = sub.events.find((e) => e.event.type === "tool_result")!.event as any;
    expect(call).toMatchObject({ tool_name: "shell", tool_input: { cwd } });
    expect(call.tool_input.command).toContain("echo tool-ran");
    expect(result).toMatchObject({ tool_use_id: call.tool_use_id, error: null, output: { output: "tool-ran\n", exit_code: 0 } });
    const assistant = (await messages(id))[1];
    expect(assistant.content.map((b: any) => b.type)).toEqual(["tool_use", "tool_result", "text"]);
    expect(textOf(assistant)).toBe("Tool said: tool-ran");
    sub.close();
  }, 30_000);

  test("three conversations stream at the same time on one app-server without crossing", async () => {
    const tags = ["alpha", "bravo", "charlie"];
    const ids = await Promise.all(tags.map(() => h.conversation()));
    const subs = await Promise.all(ids.map((id) => h.daemon.subscribe(id)));
    await Promise.all(ids.map((id, i) => h.send(id, `STREAM ${tags[i]} 12`)));
    const done = await Promise.all(subs.map((sub) => sub.waitFor(isTerminalEvent)));
    expect(done.map((d) => d.event.type)).toEqual(["turn_done", "turn_done", "turn_done"]);
    subs.forEach((sub, i) => {
      const text = sub.events.filter((e) => e.event.type === "text_delta").map((e) => (e.event as any).text).join("");
      expect(text).toBe(Array.from({ length: 12 }, (_, n) => `${tags[i]}${n} `).join(""));
    });
    // They really overlapped: every model stream began before any of them ended.
    const streams = await Promise.all(tags.map((tag) => h.fake.waitForRequest((r) => r.userText === `STREAM ${tag} 12`)));
    expect(Math.max(...streams.map((r) => r.receivedAt))).toBeLessThan(Math.min(...streams.map((r) => r.finishedAt!)));
    expect(codexChildren()).toEqual([h.provider.appServerPid]);
    expect(new Set(ids.map((id) => h.storedAgentConfig(id).session_id)).size).toBe(3);
    subs.forEach((sub) => sub.close());
  }, 30_000);

  acceptance(
    "008-agent-chat",
    "set a managed agent's model per conversation",
    async () => {
      const id = await h.conversation({ model: "gpt-5.4" });
      const sub = await h.daemon.subscribe(id);
      await h.send(id, "MODEL one");
      await sub.waitFor((e) => e.type === "turn_done");
      expect((await h.fake.waitForRequest((r) => r.userText === "MODEL one")).model).toBe("gpt-5.4");
      const before = h.storedAgentConfig(id);

      const patched = await h.daemon.api.patch(`/chat/conversations/${id}/agent-config`, { model: "gpt-5.5-mini" });
      expect(patched.status).toBe(200);
      const after = h.storedAgentConfig(id);
      expect(after).toMatchObject({ model: "gpt-5.5-mini", cwd: before.cwd, session_id: before.session_id });
      await h.send(id, "MODEL two");
      await sub.waitForCount((e) => e.type === "turn_done", 2);
      expect((await h.fake.waitForRequest((r) => r.userText === "MODEL two")).model).toBe("gpt-5.5-mini");

      // Cleared: back to the owner's configured default, although Codex made the override sticky.
      await h.daemon.api.patch(`/chat/conversations/${id}/agent-config`, { model: null });
      await h.send(id, "MODEL three");
      await sub.waitForCount((e) => e.type === "turn_done", 3);
      expect((await h.fake.waitForRequest((r) => r.userText === "MODEL three")).model).toBe(FAKE_DEFAULT_MODEL);
      const third = await h.fake.waitForRequest((r) => r.userText === "MODEL three");
      expect(conversationTexts(third)).toEqual(["MODEL one", "Echo: MODEL one", "MODEL two", "Echo: MODEL two", "MODEL three"]);
      // The owner's config.toml is never rewritten to change a model.
      expect(readFileSync(join(h.agentHome, "config.toml"), "utf8")).toContain(`model = "${FAKE_DEFAULT_MODEL}"`);
      sub.close();
    },
    30_000,
  );

  acceptance(
    "008-agent-chat",
    "stop a running turn",
    async () => {
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      await h.send(id, "SLOW please");
      await sub.waitForCount((e) => e.type === "text_delta", 2);
      // A thread is remembered only once a turn has finished (Codex keeps no rollout before).
      expect(h.storedAgentConfig(id).session_id).toBeUndefined();
      const stopped = await h.daemon.api.post(`/chat/conversations/${id}/interrupt`);
      expect(stopped.status).toBe(204);
      const done = await sub.waitFor(isTerminalEvent);
      expect(done.event).toMatchObject({ type: "turn_done", stop_reason: "interrupted" });
      const streamed = sub.events.filter((e) => e.event.type === "text_delta").map((e) => (e.event as any).text).join("");
      const assistant = (await messages(id))[1];
      expect(assistant.status).toBe("complete");
      expect(textOf(assistant)).toBe(streamed);
      expect(streamed).toMatch(/^w0 w1 /);
      expect(h.storedAgentConfig(id).session_id).toEqual(expect.any(String));

      // The conversation takes a new turn at once, on the same thread.
      await h.send(id, "after the stop");
      const next = await sub.waitForCount(isTerminalEvent, 2);
      expect(next[1]!.event).toMatchObject({ type: "turn_done", stop_reason: "end_turn" });
      const request = await h.fake.waitForRequest((r) => r.userText === "after the stop");
      expect(conversationTexts(request)[0]).toBe("SLOW please");
      sub.close();
    },
    30_000,
  );

  test("the agent is listed as available, and its app-server runs only after the first turn", async () => {
    const agents = await h.daemon.api.get("/chat/agents");
    expect(agents.body.agents).toContainEqual(expect.objectContaining({ agent_key: "codex", available: true }));
    expect(existsSync(join(h.agentHome, "sessions"))).toBe(true);
  });
});
