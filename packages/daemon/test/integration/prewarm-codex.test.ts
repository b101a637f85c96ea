/**
 * Pre-warm for Codex with the REAL `codex` (the fake Responses server on 127.0.0.1): typing
 * to Codex starts its one shared app-server before the first message, and that message runs
 * on it. The app-server is shared, so it is listed by GET /system/stats outside the cap.
 */
import type { SystemStatsOut } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startAgentHarness, type AgentHarness } from "../fakes/agent-harness.js";

describe("codex pre-warm (real codex)", () => {
  let h: AgentHarness<"codex">;
  beforeAll(async () => {
    h = await startAgentHarness("codex");
  }, 60_000);
  afterAll(() => h?.close(), 60_000);

  test("a draft's pre-warm starts the shared app-server; the first message runs on it", async () => {
    expect(h.provider.appServerPid).toBeUndefined();
    expect((await h.daemon.api.post("/chat/agents/codex/prewarm", {})).body).toEqual({ state: "started" });
    const pid = h.provider.appServerPid;
    expect(pid).toBeDefined();
    const stats = (await h.daemon.api.get("/system/stats")).body as SystemStatsOut;
    expect(stats.warm_processes).toEqual([expect.objectContaining({ pid, agent_key: "codex", shared: true, conversation_id: null })]);

    const id = await h.conversation();
    const sub = await h.daemon.subscribe(id);
    await h.send(id, "hello");
    expect((await sub.waitFor((e) => e.type === "turn_done" || e.type === "turn_error")).event.type).toBe("turn_done");
    expect(h.provider.appServerPid).toBe(pid);
    // The conversation's own hint now finds it warm.
    expect((await h.daemon.api.post("/chat/agents/codex/prewarm", { conversation_id: id })).body).toEqual({ state: "warm" });
    sub.close();
  }, 120_000);
});
