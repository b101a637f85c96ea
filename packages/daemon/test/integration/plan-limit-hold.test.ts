/**
 * The engine's plan-limit hold with the scripted agent (the real CLIs: agent-plan-limits.test.ts):
 * no reset known → no hold; a hold outlasts new messages; the timer lifts it.
 */
import { describe, expect, test } from "vitest";
import { script } from "../support/scripted-agent.js";
import { startTestDaemon } from "../support/test-daemon.js";

const planLimit = { error: { code: "plan_limit" as const, message: "plan limit" } };

describe("plan-limit hold", () => {
  test("without a reported reset the turn just fails: nothing is held", async () => {
    const t = await startTestDaemon();
    try {
      const id = await t.conversation();
      const sub = await t.subscribe(id);
      await t.api.post(`/chat/conversations/${id}/messages`, { text: script(planLimit) });
      await sub.waitFor((e) => e.type === "turn_error");
      await t.api.post(`/chat/conversations/${id}/messages`, { text: "next" });
      expect((await sub.waitFor((e) => e.type === "turn_done")).event).toMatchObject({ type: "turn_done" });
      expect(sub.events.some((e) => e.event.type === "queue_changed" && e.event.hold)).toBe(false);
      sub.close();
    } finally {
      await t.close();
    }
  });

  test("a reported reset holds the queue, new messages join it, and the reset runs them in order", async () => {
    const t = await startTestDaemon();
    try {
      const id = await t.conversation();
      const sub = await t.subscribe(id);
      const limits = { limits: { status: "rejected" as const, window: "five_hour", used: 100, resetsInMs: 1500 } };
      await t.api.post(`/chat/conversations/${id}/messages`, { text: script(limits, planLimit) });
      const held = await sub.waitFor((e) => e.type === "queue_changed" && !!e.hold);
      const until = (held.event as any).hold.until as string;
      for (const text of ["one", "two"]) {
        expect((await t.api.post(`/chat/conversations/${id}/messages`, { text })).body).toMatchObject({ queued: true });
      }
      expect((await t.api.get(`/chat/conversations/${id}/pending`)).body).toMatchObject({ paused: true, hold: { reason: "plan_limit", until } });
      expect((await t.api.get("/chat/agents")).body.agents.find((a: any) => a.agent_key === "scripted").limits).toMatchObject({
        status: "rejected",
        windows: [{ window: "five_hour", used_percent: 100, resets_at: until }],
      });
      const dones = await sub.waitForCount((e) => e.type === "turn_done", 2);
      expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(until) - 50);
      const starts = sub.events.filter((e) => e.event.type === "turn_start").map((e) => (e.event as any).user_message.content[0].text);
      expect(starts.slice(1)).toEqual(["one", "two"]);
      expect(dones).toHaveLength(2);
      expect((await t.api.get(`/chat/conversations/${id}/pending`)).body).toEqual({ pending: [], paused: false });
      sub.close();
    } finally {
      await t.close();
    }
  });
});
