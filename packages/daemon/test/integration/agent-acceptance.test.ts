/**
 * The turn engine's acceptance scenarios against the REAL agent CLIs (`claude` and `codex`,
 * each against its fake model server), through the one shared harness: the same scenario
 * runs once per agent, in one daemon per agent. The scripted-agent versions (queue.test.ts,
 * restart.test.ts) pin the engine's edges; these prove it with a real child process whose
 * turns end when the CLI says so, not when a script does.
 */
import { rm } from "node:fs/promises";
import type { ChatEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { AGENTS, startAgentHarness, textOf, type AgentHarness, type AgentKey } from "../fakes/agent-harness.js";
import { makeAgentRig } from "../fakes/agent-rig.js";
import type { FakeAnthropic } from "../fakes/fake-anthropic.js";
import type { FakeOpenAiResponses } from "../fakes/fake-openai-responses.js";
import { acceptance } from "../support/acceptance.js";
import { ApiClient, SseSubscription } from "../support/http-client.js";
import { spawnDaemon } from "../support/spawn-daemon.js";
import { makeHome } from "../support/test-daemon.js";

const TURN = 120_000;
const isTerminal = (e: ChatEvent) => e.type === "turn_done" || e.type === "turn_error";

/** The fake's reply to a plain message, per agent. */
const reply = (agent: AgentKey, text: string) => (agent === "claude_code" ? `Fake reply to: ${text}` : `Echo: ${text}`);

/** The user texts the fake model received, in order (its own record, not ours). */
function modelSaw(agent: AgentKey, fake: FakeAnthropic | FakeOpenAiResponses): string[] {
  const texts =
    agent === "claude_code"
      ? (fake as FakeAnthropic).requests.map((r) => r.lastUser.text)
      : (fake as FakeOpenAiResponses).requests.map((r) => r.userText);
  return texts.filter((t, i) => t !== texts[i - 1]); // a tool round-trip repeats the last user text
}

describe.each(AGENTS)("%s (real CLI)", (agent) => {
  let h: AgentHarness;
  beforeAll(async () => {
    h = await startAgentHarness(agent);
  }, 60_000);
  afterAll(() => h?.close(), 60_000);

  const userTexts = async (id: string) => (await h.messages(id)).filter((m) => m.role === "user").map((m) => textOf(m));
  const pending = async (id: string) => (await h.daemon.api.get(`/chat/conversations/${id}/pending`)).body;

  acceptance(
    "008-agent-chat",
    "a queued message runs after the current turn",
    async () => {
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      await h.send(id, "GATE after");
      await sub.waitFor((e) => e.type === "text_delta");
      const second = await h.daemon.api.post(`/chat/conversations/${id}/messages`, { text: "msg2" });
      expect(second).toMatchObject({ status: 202, body: { queued: true } });
      expect((await pending(id)).pending.map((p: any) => p.text)).toEqual(["msg2"]);
      const seen = h.fake.requests.length;
      h.fake.open("after");
      const starts = await sub.waitForCount((e) => e.type === "turn_start", 2);
      expect((starts[1]!.event as any).user_message.content[0].text).toBe("msg2");
      const ends = await sub.waitForCount(isTerminal, 2);
      expect(ends.map((e) => e.event.type)).toEqual(["turn_done", "turn_done"]);
      expect((await pending(id)).pending).toEqual([]);
      const messages = await h.messages(id);
      expect(messages.map((m) => [m.role, textOf(m)])).toEqual([
        ["user", "GATE after"],
        ["assistant", "gated after released"],
        ["user", "msg2"],
        ["assistant", reply(agent, "msg2")],
      ]);
      // The CLI really got the queued message only after the first turn ended.
      expect(modelSaw(agent, h.fake).slice(-1)).toEqual(["msg2"]);
      expect(h.fake.requests.length).toBeGreaterThan(seen);
      sub.close();
    },
    TURN,
  );

  acceptance(
    "008-agent-chat",
    "interrupting a turn pauses the pending queue",
    async () => {
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      await h.send(id, "GATE never-opened");
      await sub.waitFor((e) => e.type === "text_delta");
      await h.send(id, "held-1");
      await h.send(id, "held-2");
      const before = modelSaw(agent, h.fake).length;
      expect((await h.daemon.api.post(`/chat/conversations/${id}/interrupt`)).status).toBe(204);
      expect((await sub.waitFor(isTerminal)).event).toMatchObject({ type: "turn_done", stop_reason: "interrupted" });
      await sub.waitFor((e) => e.type === "queue_changed" && e.paused);
      const after = await pending(id);
      expect(after).toMatchObject({ paused: true, pending: [{ text: "held-1" }, { text: "held-2" }] });
      expect(await userTexts(id)).toEqual(["GATE never-opened"]);
      expect(modelSaw(agent, h.fake)).toHaveLength(before); // nothing held reached the model
      // Resuming runs the held messages, in order, on the real CLI.
      expect((await h.daemon.api.put(`/chat/conversations/${id}/pending`, { pending: after.pending })).body.paused).toBe(false);
      const ends = await sub.waitForCount(isTerminal, 3);
      expect(ends.map((e) => e.event.type)).toEqual(["turn_done", "turn_done", "turn_done"]);
      expect(await userTexts(id)).toEqual(["GATE never-opened", "held-1", "held-2"]);
      expect(modelSaw(agent, h.fake).slice(-2)).toEqual(["held-1", "held-2"]);
      sub.close();
    },
    TURN,
  );

  acceptance(
    "008-agent-chat",
    "editing a queued message re-queues it at the tail",
    async () => {
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      await h.send(id, "GATE edit");
      await sub.waitFor((e) => e.type === "text_delta");
      await h.send(id, "first queued");
      await h.send(id, "second queued");
      const { pending: items } = await pending(id);
      const without = await h.daemon.api.put(`/chat/conversations/${id}/pending`, { pending: items.slice(1) });
      expect(without.body.pending.map((p: any) => p.text)).toEqual(["second queued"]);
      await h.send(id, "first queued, amended");
      expect((await pending(id)).pending.map((p: any) => p.text)).toEqual(["second queued", "first queued, amended"]);
      h.fake.open("edit");
      await sub.waitForCount(isTerminal, 3);
      expect(await userTexts(id)).toEqual(["GATE edit", "second queued", "first queued, amended"]);
      // The CLI saw the amended text, last; the original never reached it.
      expect(modelSaw(agent, h.fake).slice(-2)).toEqual(["second queued", "first queued, amended"]);
      expect(modelSaw(agent, h.fake)).not.toContain("first queued");
      sub.close();
    },
    TURN,
  );

  acceptance(
    "008-agent-chat",
    "chat runs on the built-in model when no connection",
    async () => {
      // Zero LLM connections: the turn runs on the CLI's own model and login (here, the fake).
      expect((await h.daemon.api.get("/connections")).body).toEqual({ connections: [] });
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      const seen = h.fake.requests.length;
      await h.send(id, "no connection needed");
      expect((await sub.waitFor(isTerminal)).event).toMatchObject({ type: "turn_done" });
      expect(h.fake.requests.length).toBeGreaterThan(seen); // the real CLI called its model
      const [, assistant] = await h.messages(id);
      expect(assistant).toMatchObject({ status: "complete", error: null });
      expect(textOf(assistant)).toBe(reply(agent, "no connection needed"));
      sub.close();
    },
    TURN,
  );

  acceptance(
    "008-agent-chat",
    "reply survives a restart",
    async () => {
      // A daemon in its own process, killed with SIGKILL between turns: the reply is on disk,
      // and the next turn resumes the agent's session (the model sees the earlier turn).
      const rig = await makeAgentRig(agent);
      const home = await makeHome();
      const spawn = () => spawnDaemon(home, { ...rig.env, COFFER_LOG_LEVEL: "error" }, { hermetic: true });
      let d = await spawn();
      try {
        let api = new ApiClient(d.url, d.token);
        const id = (await api.post("/chat/conversations", { agent_key: agent })).body.id as string;
        const sub = await SseSubscription.open(d.url, d.token, `/chat/conversations/${id}/events`);
        await api.post(`/chat/conversations/${id}/messages`, { text: "remember me" });
        expect((await sub.waitFor(isTerminal)).event.type).toBe("turn_done");
        const before = (await api.get(`/chat/conversations/${id}/messages`)).body.messages;
        expect(before.map((m: any) => textOf(m))).toEqual(["remember me", reply(agent, "remember me")]);
        d.child.kill("SIGKILL");
        expect(await d.exited).toBe("SIGKILL");
        await sub.waitForEnd();

        d = await spawn();
        api = new ApiClient(d.url, d.token);
        expect((await api.get(`/chat/conversations/${id}/messages`)).body.messages).toEqual(before);
        const again = await SseSubscription.open(d.url, d.token, `/chat/conversations/${id}/events`);
        await api.post(`/chat/conversations/${id}/messages`, { text: "still there?" });
        expect((await again.waitFor(isTerminal)).event.type).toBe("turn_done");
        const last = agent === "claude_code"
          ? (rig.fake as FakeAnthropic).requests.at(-1)!.transcript.map((m) => m.text)
          : (rig.fake as FakeOpenAiResponses).requests.at(-1)!.input
              .filter((i) => i.type === "message" && (i.role === "user" || i.role === "assistant"))
              .map((i) => (i.content ?? []).map((c) => c.text ?? "").join(""))
              .filter((t) => !t.startsWith("<"));
        // In order: the earlier turn, its reply, the new message. (A Claude session resumed after
        // a kill -9 may add its own startup context around them, so positions are not fixed.)
        const at = (text: string) => last.findIndex((t) => t.includes(text));
        expect(at("remember me"), JSON.stringify(last)).toBeGreaterThanOrEqual(0);
        expect(at(reply(agent, "remember me")), JSON.stringify(last)).toBeGreaterThan(at("remember me"));
        expect(last.at(-1)).toBe("still there?");
        again.close();
      } finally {
        d.child.kill("SIGTERM");
        await d.exited;
        await rig.close();
        await rm(home, { recursive: true, force: true });
      }
    },
    TURN,
  );
});
