/**
 * The engine's plan-limit hold with the scripted agent (the real CLIs: agent-plan-limits.test.ts):
 * no reset known → no hold; a hold outlasts new messages; the timer lifts it.
 */
import { rm } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { script } from "../support/scripted-agent.js";
import { makeHome, startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

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

describe("plan-limit holds survive a restart", () => {
  acceptance("014-owner-in-the-loop", "a plan-limit hold survives a daemon restart over the same database: re-armed, or lifted when its reset has passed", async () => {
    const home = await makeHome();
    try {
      // 1. Hold a queue for a minute, with one message waiting behind it; stop the daemon.
      let t = await startTestDaemon({ home });
      const id = await t.conversation();
      const sub = await t.subscribe(id);
      const limits = { limits: { status: "rejected" as const, window: "five_hour", used: 100, resetsInMs: 60_000 } };
      await t.api.post(`/chat/conversations/${id}/messages`, { text: script(limits, planLimit) });
      const held = await sub.waitFor((e) => e.type === "queue_changed" && !!e.hold);
      const until = (held.event as any).hold.until as string;
      expect((await t.api.post(`/chat/conversations/${id}/messages`, { text: "after the reset" })).body).toMatchObject({ queued: true });
      sub.close();
      await t.stop();

      // 2. Same database, reset still ahead: the hold is back, with the same reset time.
      t = await startTestDaemon({ home });
      expect((await t.api.get(`/chat/conversations/${id}/pending`)).body).toMatchObject({ paused: true, hold: { reason: "plan_limit", until }, pending: [{ text: "after the reset" }] });
      await t.stop();

      // 3. Same database, the daemon's clock past the reset: the hold lifts at once and the queue runs.
      t = await startTestDaemon({ home, clock: { now: () => Date.now() + 2 * 3_600_000 } });
      const messages = await until4(t, id);
      expect(messages.at(-2).content[0].text).toBe("after the reset");
      expect((await t.api.get(`/chat/conversations/${id}/pending`)).body).toEqual({ pending: [], paused: false });
      const audit = (await t.api.get("/audit?action=chat_queue_unparked")).body.entries;
      expect(audit[0].details).toMatchObject({ conversation_id: id, by: "reset" });
      await t.stop();
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

/** The re-armed queue's turn has finished (4 messages, the last complete): polled, the daemon has no subscriber yet. */
async function until4(t: TestDaemon, id: string): Promise<any[]> {
  for (;;) {
    const messages = (await t.api.get(`/chat/conversations/${id}/messages`)).body.messages as any[];
    if (messages.length === 4 && messages[3].status === "complete") return messages;
    await new Promise((r) => setTimeout(r, 25)); // the signal is the stored row
  }
}
