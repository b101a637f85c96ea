/**
 * The engine's side of retries (issue 14, part 3), with the scripted agent: a `retrying`
 * notice is live state, not content; it is activity for the watchdog; and
 * COFFER_TURN_RETRY_GIVE_UP notices in a row end the turn as `model_unreachable`.
 * The real CLIs' notices are proven in agent-retries.test.ts.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { script } from "../support/scripted-agent.js";
import { startTestDaemon } from "../support/test-daemon.js";

const SPEC = "014-owner-in-the-loop";
const refused = (attempt: number, afterMs?: number) => ({ retry: { attempt, max: 10, message: "connection refused", ...(afterMs ? { afterMs } : {}) } });

function auditRows(home: string, action: string) {
  const d = new Database(join(home, "coffer.db"), { readonly: true });
  try {
    return (d.prepare("SELECT details FROM audit_log WHERE action = ? ORDER BY id").all(action) as any[]).map((r) => JSON.parse(r.details));
  } finally {
    d.close();
  }
}

describe("retries", () => {
  acceptance(SPEC, "a retry storm shows as retrying and ends as model_unreachable at the give-up cap", async () => {
    const t = await startTestDaemon({ timings: { flushIntervalMs: 500, watchdogMs: 600_000, stopDeadlineMs: 1000, retryGiveUp: 3 } });
    try {
      const id = await t.conversation();
      const sub = await t.subscribe(id);
      await t.api.post(`/chat/conversations/${id}/messages`, {
        text: script({ text: "looking… " }, refused(1), refused(2), refused(3), refused(4), { hang: true }),
      });
      const end = await sub.waitFor((e) => e.type === "turn_error");
      expect(end.event).toEqual({
        type: "turn_error",
        code: "model_unreachable",
        message: "the model API could not be reached after 3 attempts (last: connection refused), so the turn was stopped",
      });
      // Each notice went out live, in order; the fourth never came (the turn was stopped first).
      expect(sub.events.filter((e) => e.event.type === "retrying").map((e) => e.event)).toEqual([1, 2, 3].map((attempt) => ({
        // The agent's cap is 10, but the turn gives up after 3: the notice names the real end.
        type: "retrying", attempt, max_attempts: 3, message: "connection refused", delay_ms: null,
      })));
      // Not content: the stored reply holds the text only, and says why it failed.
      const reply = (await t.api.get(`/chat/conversations/${id}/messages`)).body.messages[1];
      expect(reply).toMatchObject({
        status: "failed",
        content: [{ type: "text", text: "looking… " }],
        error: { code: "model_unreachable" },
      });
      expect(auditRows(t.home, "chat_turn_completed").at(-1)).toMatchObject({ conversation_id: id, status: "failed", stop_reason: "model_unreachable" });
      // The conversation goes on.
      await t.api.post(`/chat/conversations/${id}/messages`, { text: "again" });
      const next = await sub.waitForCount((e) => e.type === "turn_done", 1);
      expect(next[0]!.event).toMatchObject({ type: "turn_done" });
      sub.close();
    } finally {
      await t.close();
    }
  });

  test("output between retries resets the count: a turn that recovers each time is not given up", async () => {
    const t = await startTestDaemon({ timings: { flushIntervalMs: 500, watchdogMs: 600_000, stopDeadlineMs: 1000, retryGiveUp: 2 } });
    try {
      const id = await t.conversation();
      const sub = await t.subscribe(id);
      await t.api.post(`/chat/conversations/${id}/messages`, {
        text: script(refused(1), { text: "a" }, refused(1), { text: "b" }, refused(1), { text: "c" }),
      });
      const end = await sub.waitFor((e) => e.type === "turn_done" || e.type === "turn_error");
      expect(end.event).toMatchObject({ type: "turn_done", stop_reason: "end_turn" });
      sub.close();
    } finally {
      await t.close();
    }
  });

  test("retry notices count as activity for the watchdog (cap off): backoffs longer in total than the idle timeout do not time out", async () => {
    // Each notice comes 250 ms after the last; the watchdog is 600 ms; the storm lasts 1.5 s.
    const t = await startTestDaemon({ timings: { flushIntervalMs: 500, watchdogMs: 600, stopDeadlineMs: 1000, retryGiveUp: 0 } });
    try {
      const id = await t.conversation();
      const sub = await t.subscribe(id);
      await t.api.post(`/chat/conversations/${id}/messages`, {
        text: script(...[1, 2, 3, 4, 5, 6].map((n) => refused(n, 250)), { text: "back" }),
      });
      const end = await sub.waitFor((e) => e.type === "turn_done" || e.type === "turn_error");
      expect(end.event).toMatchObject({ type: "turn_done" });
      expect(sub.events.filter((e) => e.event.type === "retrying")).toHaveLength(6);
      sub.close();
    } finally {
      await t.close();
    }
  });
});
