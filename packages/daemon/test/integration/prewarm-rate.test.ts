/**
 * Issue 21, W10: every pre-warm with settings not seen before starts an agent process (the
 * per-target floor does not see them as repeats): 300 of them kept `claude` starting for minutes.
 * The attack here is that burst, against the scripted agent with a pre-warm that counts the
 * processes it would start (a real `claude` is not installed here; the count is what the limit
 * is about), on a clock the test moves. Real daemon, real HTTP.
 */
import type { PrewarmOutcome, PrewarmTarget } from "../../src/application/ports.js";
import { expect } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { script, ScriptedAgentProvider } from "../support/scripted-agent.js";
import { startTestDaemon } from "../support/test-daemon.js";

const SPEC = "021-hardening";

/** The scripted agent, plus a pre-warm that records each process start it is asked for. */
class CountingAgent extends ScriptedAgentProvider {
  readonly started: PrewarmTarget[] = [];
  async prewarm(target: PrewarmTarget): Promise<PrewarmOutcome> {
    this.started.push(target);
    return "started";
  }
}

acceptance(SPEC, "pre-warm with ever-new settings cannot start agent processes faster than its rate limit", async () => {
  let now = 1_700_000_000_000;
  const agent = new CountingAgent();
  const t = await startTestDaemon({ clock: { now: () => now }, providers: (defaults) => [...defaults, agent] });
  try {
    const burst = async (count: number, tag: string) => {
      const states: string[] = [];
      for (let i = 0; i < count; i += 1) {
        const res = await t.api.post(`/chat/agents/scripted/prewarm`, { model: `model-${tag}-${i}` });
        expect(res.status).toBe(202);
        states.push(res.body.state);
      }
      return states;
    };
    // 300 distinct pre-warms at one instant: a handful start, the rest are throttled.
    const first = await burst(300, "a");
    const startedAtOnce = agent.started.length;
    expect(startedAtOnce).toBeGreaterThan(0);
    expect(startedAtOnce).toBeLessThanOrEqual(4);
    expect(first.filter((s) => s === "started")).toHaveLength(startedAtOnce);
    expect(first.filter((s) => s === "throttled")).toHaveLength(300 - startedAtOnce);

    // A minute on, the bucket has refilled by its rate, no more: over 5 minutes at most 6 a minute.
    for (let minute = 1; minute <= 5; minute += 1) {
      now += 60_000;
      await burst(50, `m${minute}`);
    }
    expect(agent.started.length - startedAtOnce).toBeLessThanOrEqual(5 * 6);
    expect(agent.started.length - startedAtOnce).toBeGreaterThan(0);

    // A real turn is never throttled: the owner's message runs while pre-warm is refused.
    expect(await burst(1, "again")).toEqual(["throttled"]);
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "still works" }) });
    await sub.waitFor((e) => e.type === "turn_done");
    sub.close();
  } finally {
    await t.close();
  }
}, 60_000);
