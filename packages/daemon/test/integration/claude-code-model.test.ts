/**
 * The per-conversation model with the real `claude` CLI: it reaches the model API's
 * request body, is recorded on the message, and a change restarts the warm process
 * on the same session. Token usage and the audit row come from the same turns.
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isTerminalEvent, type ChatEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { REPLY_USAGE } from "../fakes/fake-anthropic.js";
import { startAgentHarness, type AgentHarness } from "../fakes/agent-harness.js";
import { acceptance } from "../support/acceptance.js";

let h: AgentHarness<"claude_code">;
beforeAll(async () => {
  h = await startAgentHarness("claude_code");
}, 30_000);
afterAll(() => h?.close(), 30_000);

const TURN = 90_000;
const isTerminal = (e: ChatEvent) => isTerminalEvent(e);

async function turn(sub: Awaited<ReturnType<AgentHarness<"claude_code">["daemon"]["subscribe"]>>, id: string, text: string) {
  const before = sub.events.filter((e) => isTerminal(e.event)).length;
  await h.send(id, text);
  return (await sub.waitForCount(isTerminal, before + 1)).at(-1)!.event;
}

describe("the conversation's model with Claude Code", () => {
  acceptance(
    "008-agent-chat",
    "set a managed agent's model per conversation",
    async () => {
      const cwd = h.workDir;
      const id = await h.conversation({ cwd, model: "claude-sonnet-4-5" });
      const sub = await h.daemon.subscribe(id);
      await turn(sub, id, "one");
      expect(h.fake.requests.at(-1)!.model).toBe("claude-sonnet-4-5");
      const sessionId = h.storedAgentConfig(id).session_id;
      const firstPid = h.provider.warmProcess(id)?.pid;

      const patched = await h.daemon.api.patch(`/chat/conversations/${id}/agent-config`, { model: "claude-haiku-4-5" });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ cwd, model: "claude-haiku-4-5" });
      expect(h.storedAgentConfig(id)).toMatchObject({ cwd, model: "claude-haiku-4-5", session_id: sessionId });

      await turn(sub, id, "two");
      const second = h.fake.requests.at(-1)!;
      expect(second.model).toBe("claude-haiku-4-5");
      expect(h.provider.warmProcess(id)?.pid).not.toBe(firstPid); // restarted for the new model…
      expect(second.transcript.map((m) => m.text)).toEqual(["one", "Fake reply to: one", "two"]); // …on the same session
      expect(h.storedAgentConfig(id).session_id).toBe(sessionId);

      // Clearing reverts to the default the owner's profile put in the CLI's settings.
      await writeFile(join(h.agentHome, "settings.json"), JSON.stringify({ model: "claude-sonnet-4-5" }));
      const cleared = await h.daemon.api.patch(`/chat/conversations/${id}/agent-config`, { model: "" });
      expect(cleared.status).toBe(200);
      expect(h.storedAgentConfig(id).model).toBeUndefined();
      await turn(sub, id, "three");
      const third = h.fake.requests.at(-1)!;
      expect(third.model).toBe("claude-sonnet-4-5");
      expect(third.transcript.map((m) => m.text)).toEqual(["one", "Fake reply to: one", "two", "Fake reply to: two", "three"]);
      expect(h.storedAgentConfig(id)).toMatchObject({ cwd, session_id: sessionId });
      await rm(join(h.agentHome, "settings.json"));
      sub.close();
    },
    TURN,
  );

  acceptance(
    "008-agent-chat",
    "model selection is recorded",
    async () => {
      const id = await h.conversation({ model: "claude-haiku-4-5" });
      const sub = await h.daemon.subscribe(id);
      const done = await turn(sub, id, "which model?");
      // The CLI asks for the alias; the API answers with the snapshot that served it, and
      // that dated id is what Coffer records and shows for the turn (as in production).
      expect(h.fake.requests.at(-1)!.model).toBe("claude-haiku-4-5");
      expect(done).toMatchObject({ type: "turn_done", model: "claude-haiku-4-5-20251001" });
      const assistant = (await h.daemon.api.get(`/chat/conversations/${id}/messages`)).body.messages[1];
      expect(assistant).toMatchObject({ role: "assistant", status: "complete", model_id: "claude-haiku-4-5-20251001" });
      sub.close();
    },
    TURN,
  );

  acceptance(
    "008-agent-chat",
    "token usage and audit",
    async () => {
      const id = await h.conversation({ model: "claude-sonnet-4-5" });
      const sub = await h.daemon.subscribe(id);
      await turn(sub, id, "count me");
      // The session's cumulative cost/modelUsage grows each turn; each turn records its own usage.
      const done = await turn(sub, id, "count me again");
      expect(done).toMatchObject({ prompt_tokens: REPLY_USAGE.input_tokens, completion_tokens: REPLY_USAGE.output_tokens });
      const messages = (await h.daemon.api.get(`/chat/conversations/${id}/messages`)).body.messages;
      for (const assistant of [messages[1], messages[3]]) {
        expect(assistant).toMatchObject({
          prompt_tokens: REPLY_USAGE.input_tokens,
          completion_tokens: REPLY_USAGE.output_tokens,
        });
      }
      const audits = h.auditRows("chat_turn_completed").filter((r) => r.details.conversation_id === id);
      expect(audits).toHaveLength(2);
      expect(audits[1]).toMatchObject({
        actor: "agent",
        details: {
          model_id: "claude-sonnet-4-5-20250929",
          status: "complete",
          stop_reason: "end_turn",
          prompt_tokens: REPLY_USAGE.input_tokens,
          completion_tokens: REPLY_USAGE.output_tokens,
        },
      });
      sub.close();
    },
    TURN,
  );
});
