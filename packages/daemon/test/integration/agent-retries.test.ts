/**
 * Retries with the REAL CLIs against their fake model servers (issue 14, part 3): the
 * fake fails every call (HTTP 529 for Claude, 500 for Codex) or drops the connection; the
 * CLI retries and says so on its stream; the daemon publishes each notice as `retrying`
 * and, at COFFER_TURN_RETRY_GIVE_UP (3 here), ends the turn as `model_unreachable` —
 * long before the CLI's own cap (Claude: 10 with growing backoff) or the idle watchdog.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ChatEvent, RetryingEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { AGENTS, startAgentHarness, type AgentHarness } from "../fakes/agent-harness.js";
import { codexConfigToml, FAKE_DEFAULT_MODEL } from "../fakes/codex-home.js";
import type { FakeOpenAiResponses } from "../fakes/fake-openai-responses.js";
import { acceptance } from "../support/acceptance.js";

const SPEC = "014-owner-in-the-loop";
const TURN = 120_000;
const isTerminal = (e: ChatEvent) => e.type === "turn_done" || e.type === "turn_error";

describe.each(AGENTS)("%s (real CLI)", (agent) => {
  let h: AgentHarness;
  beforeAll(async () => {
    h = await startAgentHarness(agent, { timings: { retryGiveUp: 3 } });
    // The rig turns Codex's retries off (fast failures elsewhere); this scenario needs them.
    if (agent === "codex") {
      await writeFile(join(h.agentHome, "config.toml"), codexConfigToml((h.fake as FakeOpenAiResponses).baseUrl, FAKE_DEFAULT_MODEL, 10));
    }
  }, 60_000);
  afterAll(() => h?.close(), 60_000);

  const failing = agent === "claude_code" ? "OVERLOADED please" : "FAIL_HTTP please";

  acceptance(
    SPEC,
    "the agent's retries show live and a hopeless turn ends as model_unreachable",
    async () => {
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      await h.send(id, failing);
      const end = await sub.waitFor(isTerminal);
      const retries = sub.events.filter((e) => e.event.type === "retrying").map((e) => e.event as RetryingEvent);
      expect(retries.map((r) => r.attempt)).toEqual([1, 2, 3]);
      if (agent === "claude_code") {
        // The CLI's own cap is 10; the daemon gives up after 3, so that is the end every surface names.
        expect(retries[0]).toMatchObject({ max_attempts: 3, message: "API 529 overloaded" });
        expect(retries[0]!.delay_ms).toBeGreaterThan(0);
      } else {
        expect(retries[0]).toMatchObject({ max_attempts: 3, delay_ms: null });
        expect(retries[0]!.message).toMatch(/\S/);
      }
      expect(end.event).toMatchObject({ type: "turn_error", code: "model_unreachable" });
      expect((end.event as { message: string }).message).toContain("after 3 attempts");
      // The CLI really was calling the model again and again (its own record, not ours).
      expect(h.fake.requests.length).toBeGreaterThanOrEqual(3);
      const reply = (await h.messages(id)).at(-1);
      expect(reply).toMatchObject({ role: "assistant", status: "failed", error: { code: "model_unreachable" } });
      // The conversation goes on once the model answers again.
      await h.send(id, "hello again");
      const ends = await sub.waitForCount(isTerminal, 2);
      expect(ends[1]!.event).toMatchObject({ type: "turn_done" });
      sub.close();
    },
    TURN,
  );

  acceptance(
    SPEC,
    "a dropped connection is retried visibly, with no HTTP status",
    async () => {
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      await h.send(id, "DROP please");
      const end = await sub.waitFor(isTerminal);
      const retries = sub.events.filter((e) => e.event.type === "retrying").map((e) => e.event as RetryingEvent);
      expect(retries.length).toBe(3);
      if (agent === "claude_code") expect(retries[0]!.message).toBe("connection failed (no response from the model API)");
      else expect(retries[0]!.message).toMatch(/\S/);
      expect(end.event).toMatchObject({ type: "turn_error", code: "model_unreachable" });
      sub.close();
    },
    TURN,
  );
});
