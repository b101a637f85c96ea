import { describe, expect, test } from "vitest";
import type { WarmLease, WarmProcess } from "./warm-pool-ports.js";
import { maxWarmAgents, WarmPool } from "./warm-pool.js";

/**
 * The pool's policy on its own. Its processes here are plain records (what the pool sees
 * of a process: busy or not, and how to end it); the real-CLI test
 * (test/integration/warm-pool-claude.test.ts) proves the same with real `claude` processes.
 */
class Proc implements WarmProcess {
  readonly agentKey = "claude_code";
  busy = false;
  evicted = false;
  lease!: WarmLease;
  constructor(
    readonly conversationId: string,
    readonly pid: number,
  ) {}
  async evict(): Promise<void> {
    this.evicted = true;
    this.lease.gone();
  }
}

let now = 1_000;
const clock = { now: () => now++ };

async function start(pool: WarmPool, id: string, purpose: "turn" | "prewarm" = "turn"): Promise<Proc | null> {
  const slot = await pool.slot(purpose);
  if (!slot) return null;
  const p = new Proc(id, 100 + pool.size);
  p.lease = slot.fill(p);
  return p;
}

describe("warm pool", () => {
  test("at the cap, the least recently used idle process is evicted, never a busy one", async () => {
    const pool = new WarmPool(2, clock);
    const a = (await start(pool, "a"))!;
    const b = (await start(pool, "b"))!;
    a.lease.touch(); // a used after b: b is now the least recently used
    const c = (await start(pool, "c"))!;
    expect(b.evicted).toBe(true);
    expect(a.evicted).toBe(false);
    expect(pool.list().map((p) => p.conversationId)).toEqual(["c", "a"]);

    // a runs a turn: older than c, but busy, so c goes.
    a.busy = true;
    a.lease.touch();
    c.lease.touch();
    const d = (await start(pool, "d"))!;
    expect(a.evicted).toBe(false);
    expect(c.evicted).toBe(true);
    expect(d.evicted).toBe(false);
  });

  test("a turn finding every process busy starts over the cap; the pool trims back when turns end", async () => {
    const pool = new WarmPool(1, clock);
    const a = (await start(pool, "a"))!;
    a.busy = true;
    const b = (await start(pool, "b"))!;
    b.busy = true;
    expect(pool.size).toBe(2);
    expect(a.evicted || b.evicted).toBe(false);
    a.busy = false;
    a.lease.idle();
    expect(a.evicted).toBe(true);
    expect(pool.size).toBe(1);
  });

  test("a pre-warm never takes the pool past its cap: it evicts an idle process or is skipped", async () => {
    const pool = new WarmPool(2, clock);
    const a = (await start(pool, "a"))!;
    const b = (await start(pool, "b"))!;
    a.busy = true;
    b.busy = true;
    expect(await start(pool, "draft", "prewarm")).toBeNull();
    expect(pool.size).toBe(2);
    b.busy = false;
    const spare = await start(pool, "draft", "prewarm");
    expect(spare).not.toBeNull();
    expect(b.evicted).toBe(true);
    expect(pool.size).toBe(2);
  });

  test("two callers racing for the last place do not both take it", async () => {
    const pool = new WarmPool(1, clock);
    const [x, y] = await Promise.all([pool.slot("prewarm"), pool.slot("prewarm")]);
    expect([x, y].filter(Boolean)).toHaveLength(1);
    x?.cancel();
    y?.cancel();
    expect(await pool.slot("prewarm")).not.toBeNull();
  });

  test("COFFER_MAX_WARM_AGENTS: a positive integer, else the default", () => {
    expect(maxWarmAgents(undefined)).toBe(4);
    expect(maxWarmAgents("2")).toBe(2);
    expect(() => maxWarmAgents("0")).toThrow(/positive integer/);
    expect(() => maxWarmAgents("two")).toThrow(/positive integer/);
  });
});
