/**
 * The model field's suggestions (GET /chat/agents/{agent}/models) with the real CLIs on a
 * hermetic PATH, offline: each agent lists its own models (Codex `model/list`, Claude Code's
 * supported models), recently used ones follow, the other agent's models never appear, and an
 * agent that is not installed degrades to the recent ones with a reason.
 */
import { isTerminalEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { AGENTS, startAgentHarness, type AgentHarness, type AgentKey } from "../fakes/agent-harness.js";
import { acceptance } from "../support/acceptance.js";

const OTHER: Record<AgentKey, AgentKey> = { claude_code: "codex", codex: "claude_code" };
/** A model id the agent does not list itself, so it can only come back as "recent". */
const OWN_MODEL: Record<AgentKey, string> = { claude_code: "claude-coffer-test-1", codex: "gpt-coffer-test-1" };

describe.each(AGENTS)("model suggestions for %s", (agent) => {
  let h: AgentHarness;
  beforeAll(async () => {
    h = await startAgentHarness(agent);
  }, 60_000);
  afterAll(() => h?.close(), 30_000);

  acceptance(
    "015-page-basics",
    "the model field suggests the agent's own models and recently used ones, never another agent's",
    async () => {
      const first = await h.daemon.api.get(`/chat/agents/${agent}/models`);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ agent_key: agent, from_agent: true, reason: null });
      const listed = first.body.models as { id: string; source: string; label: string | null }[];
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.every((m) => m.source === "agent" && m.id.length > 0)).toBe(true);
      // Claude Code lists its aliases (`default`, `opus`…), Codex its gpt models: never each other's.
      if (agent === "claude_code") expect(listed.some((m) => /^gpt-/.test(m.id))).toBe(false);
      else expect(listed.some((m) => /claude|opus|sonnet|haiku/i.test(m.id))).toBe(false);

      // A turn on a model the agent does not list: it comes back as recently used, after the agent's own.
      const id = await h.conversation({ model: OWN_MODEL[agent] });
      const sub = await h.daemon.subscribe(id);
      await h.send(id, "hello");
      await sub.waitFor((e) => isTerminalEvent(e));
      sub.close();
      const again = await h.daemon.api.get(`/chat/agents/${agent}/models`);
      const models = again.body.models as { id: string; source: string }[];
      expect(models.slice(0, listed.length).map((m) => m.id)).toEqual(listed.map((m) => m.id)); // the cached list, first
      expect(models.filter((m) => m.source === "recent").map((m) => m.id)).toContain(OWN_MODEL[agent]);

      // The other agent is not on this PATH: recent ones only (none of this agent's), with why.
      const other = await h.daemon.api.get(`/chat/agents/${OTHER[agent]}/models`);
      expect(other.status).toBe(200);
      expect(other.body.from_agent).toBe(false);
      expect(other.body.reason).toMatch(/not installed/);
      expect(other.body.models).toEqual([]);
    },
    120_000,
  );

  acceptance("015-page-basics", "asking for an unknown agent's models is a client error with a stable code", async () => {
    const res = await h.daemon.api.get("/chat/agents/nobody/models");
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.error.code).toBe("UNKNOWN_AGENT");
  });
});
