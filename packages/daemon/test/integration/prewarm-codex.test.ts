/**
 * Pre-warm for Codex with the REAL `codex` (the fake Responses server on 127.0.0.1): typing
 * to Codex starts its one shared app-server and, for a draft, opens a spare thread with the
 * draft's settings, so the first message pays neither. The app-server is shared, so it is
 * listed by GET /system/stats outside the cap; Codex itself (`thread/loaded/list`) says
 * which threads are loaded.
 */
import type { SystemStatsOut } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { startAgentHarness, type AgentHarness } from "../fakes/agent-harness.js";

describe("codex pre-warm (real codex)", () => {
  let h: AgentHarness<"codex">;
  beforeAll(async () => {
    h = await startAgentHarness("codex");
  }, 60_000);
  afterAll(() => h?.close(), 60_000);

  async function turn(id: string, text: string): Promise<void> {
    const sub = await h.daemon.subscribe(id);
    await h.send(id, text);
    expect((await sub.waitFor((e) => e.type === "turn_done" || e.type === "turn_error")).event.type).toBe("turn_done");
    sub.close();
  }

  test("a draft's pre-warm starts the shared app-server; the first message runs on it", async () => {
    expect(h.provider.appServerPid).toBeUndefined();
    expect((await h.daemon.api.post("/chat/agents/codex/prewarm", {})).body).toEqual({ state: "started" });
    const pid = h.provider.appServerPid;
    expect(pid).toBeDefined();
    const stats = (await h.daemon.api.get("/system/stats")).body as SystemStatsOut;
    expect(stats.warm_processes).toEqual([expect.objectContaining({ pid, agent_key: "codex", shared: true, conversation_id: null })]);

    const id = await h.conversation();
    await turn(id, "hello");
    expect(h.provider.appServerPid).toBe(pid);
    // The conversation's own hint now finds it warm.
    expect((await h.daemon.api.post("/chat/agents/codex/prewarm", { conversation_id: id })).body).toEqual({ state: "warm" });
  }, 120_000);

  acceptance(
    "016-speed-footprint",
    "a Codex draft's pre-warm opens a spare thread; the first message with the same settings runs on it, and its gateway calls are the conversation's",
    async () => {
      const draft = { model: "gpt-fake" };
      expect((await h.daemon.api.post("/chat/agents/codex/prewarm", draft)).body).toEqual({ state: "started" });
      const spare = await h.provider.spareThread();
      expect(spare).toBeDefined();
      expect(await h.provider.loadedThreads()).toContain(spare);

      // A conversation with other settings never takes it.
      const other = await h.conversation({ model: "gpt-other" });
      await turn(other, "other settings");
      expect(h.storedAgentConfig(other).session_id).not.toBe(spare);
      expect(await h.provider.spareThread()).toBe(spare);

      // The draft's first message (same settings) runs on the spare; a memory it writes
      // through the gateway is audited as this conversation, not the spare's stand-in.
      const id = await h.conversation(draft);
      await turn(id, 'CALL_MCP mcp__coffer coffer__remember {"text":"the spare thread remembers","scope":"global"}');
      expect(h.storedAgentConfig(id).session_id).toBe(spare);
      expect(await h.provider.spareThread()).toBeUndefined();
      const rows = (await h.daemon.api.get("/audit?action=memory_added&limit=1")).body.entries;
      expect(rows[0]).toMatchObject({ actor: "agent", details: { agent: "codex", conversation_id: id } });

      // One spare at most: a draft with other settings replaces an unclaimed one, which unloads.
      expect((await h.daemon.api.post("/chat/agents/codex/prewarm", { model: "gpt-fake", cwd: h.workDir })).body).toEqual({ state: "started" });
      const first = (await h.provider.spareThread())!;
      expect((await h.daemon.api.post("/chat/agents/codex/prewarm", { model: "gpt-other" })).body).toEqual({ state: "started" });
      const second = (await h.provider.spareThread())!;
      expect(second).not.toBe(first);
      await expect.poll(() => h.provider.loadedThreads()).not.toContain(first);
      expect(await h.provider.loadedThreads()).toContain(second);
    },
    120_000,
  );
});

describe("codex spare thread left unclaimed (real codex)", () => {
  test("an unclaimed spare thread is unloaded after COFFER_CODEX_IDLE_SECONDS", async () => {
    const h = await startAgentHarness("codex", { env: { COFFER_CODEX_IDLE_SECONDS: "0.2" } });
    try {
      expect((await h.daemon.api.post("/chat/agents/codex/prewarm", {})).body).toEqual({ state: "started" });
      const spare = (await h.provider.spareThread())!;
      expect(spare).toBeDefined();
      await expect.poll(() => h.provider.spareThread(), { timeout: 10_000 }).toBeUndefined();
      await expect.poll(() => h.provider.loadedThreads(), { timeout: 10_000 }).not.toContain(spare);
      // A fresh conversation then starts its own thread, as without a pre-warm.
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      await h.send(id, "after the spare went");
      expect((await sub.waitFor((e) => e.type === "turn_done" || e.type === "turn_error")).event.type).toBe("turn_done");
      sub.close();
      expect(h.storedAgentConfig(id).session_id).not.toBe(spare);
    } finally {
      await h.close();
    }
  }, 60_000);
});
