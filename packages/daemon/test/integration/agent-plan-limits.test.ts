/**
 * Plan limits with the REAL CLIs against their fakes (issue 14, part 4). The fake answers
 * PLAN_LIMIT with a 429 and the plan's rate-limit headers (Claude's unified headers, read
 * only when the CLI is signed in with an OAuth token; Codex's x-codex-* headers). The CLI
 * reports the windows (rate_limit_event / account/rateLimits/updated) and fails the turn;
 * the daemon keeps the windows for GET /chat/agents and parks the queue until the reset.
 */
import type { ChatEvent, QueueChangedEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { AGENTS, startAgentHarness, type AgentHarness } from "../fakes/agent-harness.js";
import { acceptance } from "../support/acceptance.js";

const SPEC = "014-owner-in-the-loop";
const TURN = 120_000;
const isTerminal = (e: ChatEvent) => e.type === "turn_done" || e.type === "turn_error";
const held = (e: ChatEvent) => e.type === "queue_changed" && !!e.hold;

describe.each(AGENTS)("%s (real CLI)", (agent) => {
  let h: AgentHarness;
  beforeAll(async () => {
    // Claude reports plan limits only to a claude.ai sign-in: an OAuth token, no API key.
    h = await startAgentHarness(agent, agent === "claude_code" ? { env: { ANTHROPIC_API_KEY: "", CLAUDE_CODE_OAUTH_TOKEN: "fake-oauth-token" } } : {});
  }, 60_000);
  afterAll(() => h?.close(), 60_000);

  const parkedRows = (id: string) => h.auditRows("chat_queue_parked").filter((r) => r.details.conversation_id === id);
  const unparkedRows = (id: string) => h.auditRows("chat_queue_unparked").filter((r) => r.details.conversation_id === id);

  acceptance(
    SPEC,
    "a plan limit parks the queue until its reset, shows the windows, and resumes by itself",
    async () => {
      h.fake.planResetSeconds = 3;
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      await h.send(id, "PLAN_LIMIT please");
      const end = await sub.waitFor(isTerminal);
      expect(end.event).toMatchObject({ type: "turn_error", code: "plan_limit" });
      const hold = ((await sub.waitFor(held)).event as QueueChangedEvent).hold!;
      expect(hold.reason).toBe("plan_limit");
      // The agent's own windows, as GET /chat/agents carries them.
      const agents = (await h.daemon.api.get("/chat/agents")).body.agents;
      const limits = agents.find((a: any) => a.agent_key === agent).limits;
      expect(limits.status).toBe("rejected");
      const full = limits.windows.find((w: any) => w.used_percent === 100);
      expect(full).toMatchObject({ window: agent === "claude_code" ? "five_hour" : "primary", window_minutes: 300 });
      expect(full.resets_at).toBe(hold.until);
      // A message sent meanwhile waits behind the hold instead of running into the wall.
      const ack = await h.daemon.api.post(`/chat/conversations/${id}/messages`, { text: "after the reset" });
      expect(ack.body).toMatchObject({ queued: true });
      expect((await h.daemon.api.get(`/chat/conversations/${id}/pending`)).body).toMatchObject({ paused: true, hold });
      // At the reset the queue runs by itself.
      const starts = await sub.waitForCount((e) => e.type === "turn_start", 2);
      expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(hold.until) - 50);
      expect((starts[1]!.event as any).user_message.content[0].text).toBe("after the reset");
      const ends = await sub.waitForCount(isTerminal, 2);
      expect(ends[1]!.event).toMatchObject({ type: "turn_done" });
      expect(parkedRows(id)).toEqual([{ actor: "agent", details: { conversation_id: id, agent_key: agent, until: hold.until, reason: "plan_limit" } }]);
      expect(unparkedRows(id)).toEqual([{ actor: "agent", details: { conversation_id: id, by: "reset" } }]);
      sub.close();
    },
    TURN,
  );

  acceptance(
    "022-screens-true",
    "after a plan limit's reset the window's gauge no longer contradicts the status",
    async () => {
      h.fake.planResetSeconds = 2;
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      await h.send(id, "PLAN_LIMIT please");
      await sub.waitFor(isTerminal);
      const hold = ((await sub.waitFor(held)).event as QueueChangedEvent).hold!;
      await h.send(id, "after the reset");
      // The queue ran at the reset, and the model answered: the limit is over.
      expect((await sub.waitForCount(isTerminal, 2))[1]!.event).toMatchObject({ type: "turn_done" });
      expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(hold.until));
      const limits = (await h.daemon.api.get("/chat/agents")).body.agents.find((a: any) => a.agent_key === agent).limits;
      const name = agent === "claude_code" ? "five_hour" : "primary";
      const window = limits.windows.find((w: any) => w.window === name);
      // Not "100% used" beside a status that lets turns run: unknown until the agent reports it again.
      expect(window.used_percent === null || window.used_percent < 100).toBe(true);
      expect(limits.status).not.toBe("rejected");
      if (window.used_percent === null) expect(window.resets_at).toBeNull();
      sub.close();
    },
    TURN,
  );

  acceptance(
    SPEC,
    "the owner resumes a parked queue before the reset",
    async () => {
      h.fake.planResetSeconds = 3600;
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      await h.send(id, "PLAN_LIMIT please");
      await sub.waitFor(isTerminal);
      await sub.waitFor(held);
      await h.send(id, "go anyway");
      const queue = (await h.daemon.api.get(`/chat/conversations/${id}/pending`)).body;
      expect(queue.hold.reason).toBe("plan_limit");
      const resumed = await h.daemon.api.put(`/chat/conversations/${id}/pending`, { pending: queue.pending.map((p: any) => ({ id: p.id })), resume: true });
      expect(resumed.status).toBe(200);
      const starts = await sub.waitForCount((e) => e.type === "turn_start", 2);
      expect((starts[1]!.event as any).user_message.content[0].text).toBe("go anyway");
      expect((await sub.waitForCount(isTerminal, 2))[1]!.event).toMatchObject({ type: "turn_done" });
      expect((await h.daemon.api.get(`/chat/conversations/${id}/pending`)).body.hold).toBeUndefined();
      expect(unparkedRows(id)).toEqual([{ actor: "user", details: { conversation_id: id, by: "owner" } }]);
      sub.close();
    },
    TURN,
  );
});
