/**
 * The bounded warm pool with REAL `claude` processes (the fake Anthropic server on
 * 127.0.0.1), cap 2: least-recently-used eviction, a busy process (waiting on the owner's
 * answer) never evicted, an evicted conversation resuming its session, pre-warm within the
 * cap, and a draft's pre-warmed process adopted by its first turn. GET /system/stats is
 * what the test reads the pool through.
 */
import type { ChatEvent, SystemStatsOut } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { startAgentHarness, type AgentHarness } from "../fakes/agent-harness.js";
import { acceptance } from "../support/acceptance.js";
import type { SseSubscription } from "../support/http-client.js";
import { askPrompt } from "../support/question-fixture.js";

const SPEC = "016-speed-footprint";
const TIMEOUT = 240_000;
const MODEL = { model: "claude-sonnet-4-5" };
const ASK = askPrompt("claude_code");
const isTerminal = (e: ChatEvent) => e.type === "turn_done" || e.type === "turn_error";

describe("warm pool (real claude, COFFER_MAX_WARM_AGENTS=2)", () => {
  let h: AgentHarness<"claude_code">;
  const subs = new Map<string, SseSubscription>();
  beforeAll(async () => {
    h = await startAgentHarness("claude_code", { env: { COFFER_MAX_WARM_AGENTS: "2" } });
  }, 60_000);
  afterAll(async () => {
    for (const s of subs.values()) s.close();
    await h?.close();
  }, 60_000);

  const sub = async (id: string) => {
    let s = subs.get(id);
    if (!s) subs.set(id, (s = await h.daemon.subscribe(id)));
    return s;
  };
  /** One turn to its end; returns the terminal event. */
  const turn = async (id: string, text: string) => {
    const s = await sub(id);
    const from = s.events.length;
    await h.send(id, text);
    const end = (await s.waitFor(isTerminal, from)).event;
    expect(end.type, JSON.stringify(end)).toBe("turn_done");
  };
  /** Starts a turn that waits on the owner's answer; returns the question id. */
  const ask = async (id: string) => {
    const s = await sub(id);
    const from = s.events.length;
    await h.send(id, ASK);
    return ((await s.waitFor((e) => e.type === "question", from)).event as { question_id: string }).question_id;
  };
  const answer = async (id: string, qid: string) => {
    const s = await sub(id);
    const from = s.events.length;
    const res = await h.daemon.api.post(`/chat/conversations/${id}/questions/${qid}/answer`, { answers: [{ selected: ["Blue"] }], by: "web" });
    expect(res.status).toBe(204);
    expect((await s.waitFor(isTerminal, from)).event.type).toBe("turn_done");
  };
  const stats = async () => (await h.daemon.api.get("/system/stats")).body as SystemStatsOut;
  const pidOf = (id: string) => h.provider.warmProcess(id)?.pid;
  const alive = (pid: number | undefined) => {
    if (pid === undefined) return false;
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  let a: string, b: string, c: string;

  acceptance(
    SPEC,
    "the warm pool evicts the least recently used idle process at the cap, never one running a turn or waiting on the owner",
    async () => {
      [a, b, c] = [await h.conversation(MODEL), await h.conversation(MODEL), await h.conversation(MODEL)];
      await turn(a, "a first");
      await turn(b, "b first");
      await turn(a, "a again"); // a used last: b is now the least recently used
      const [pa, pb] = [pidOf(a), pidOf(b)];
      const bExited = h.provider.warmProcess(b)!.exited;

      await turn(c, "c first");
      await bExited; // evicted for c
      expect(pidOf(b)).toBeUndefined();
      expect(pidOf(a)).toBe(pa);
      expect(alive(pa)).toBe(true);
      expect(alive(pb)).toBe(false);

      // a waits on the owner (busy) and is older than c: the next process takes c's place.
      const qid = await ask(a);
      await turn(c, "c again");
      const cExited = h.provider.warmProcess(c)!.exited;
      await turn(b, "b back");
      await cExited;
      expect(pidOf(a)).toBe(pa);
      expect(alive(pa)).toBe(true);
      // b's new process resumed its session: the model sees b's earlier exchange.
      expect(h.fake.requests.at(-1)!.transcript.map((m) => m.text)).toEqual(["b first", "Fake reply to: b first", "b back"]);
      await answer(a, qid);

      const s = await stats();
      expect(s.warm_cap).toBe(2);
      expect(s.warm_processes.filter((p) => !p.shared).map((p) => p.conversation_id).sort()).toEqual([a, b].sort());
      for (const p of s.warm_processes) expect(p.rss_bytes).toBeGreaterThan(0);
      expect(s.turns_running).toBe(0);
      expect(s.db.file_bytes).toBeGreaterThan(0);
    },
    TIMEOUT,
  );

  acceptance(
    SPEC,
    "pre-warm never starts more than the cap; a draft's pre-warmed process serves its first message",
    async () => {
      // Both warm processes busy: no room, and nothing is evicted for a pre-warm.
      const [qa, qb] = [await ask(a), await ask(b)];
      const draft = () => h.daemon.api.post("/chat/agents/claude_code/prewarm", MODEL);
      expect((await draft()).body).toEqual({ state: "skipped" });
      let s = await stats();
      expect(s.warm_processes.filter((p) => !p.shared)).toHaveLength(2);
      expect(s.turns_running).toBe(2);

      // b's turn ends: the pre-warm takes b's place (never a third process).
      await answer(b, qb);
      const bExited = h.provider.warmProcess(b)!.exited;
      expect((await draft()).body).toEqual({ state: "started" });
      await bExited;
      s = await stats();
      const warm = s.warm_processes.filter((p) => !p.shared);
      expect(warm).toHaveLength(2);
      const spare = warm.find((p) => p.conversation_id === null)!;
      expect(spare).toBeDefined();
      expect(alive(spare.pid)).toBe(true);
      // Asked again at once: throttled, still one spare.
      expect((await draft()).body).toEqual({ state: "throttled" });
      await answer(a, qa);

      // The draft's first message is created with the same settings: its turn takes the spare.
      const d = await h.conversation(MODEL);
      await turn(d, "d first");
      expect(pidOf(d)).toBe(spare.pid);
      s = await stats();
      expect(s.warm_processes.find((p) => p.pid === spare.pid)?.conversation_id).toBe(d);
      expect(s.warm_processes.filter((p) => !p.shared).length).toBeLessThanOrEqual(2);

      // A conversation's own pre-warm: warm already, and an unknown conversation is a 404.
      expect((await h.daemon.api.post("/chat/agents/claude_code/prewarm", { conversation_id: d })).body).toEqual({ state: "warm" });
      const missing = await h.daemon.api.post("/chat/agents/claude_code/prewarm", { conversation_id: "nope" });
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe("CONVERSATION_NOT_FOUND");
    },
    TIMEOUT,
  );
});
