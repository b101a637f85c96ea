import type { AgentLimitsOut, PlanLimitsEvent } from "@coffer/protocol";

/**
 * The latest plan limits each agent reported (issue 14, part 4). In memory: the agents
 * repeat them on every model call, so a restart loses nothing worth a table.
 * Codex's updates are sparse ("a null does not clear a previously observed value"), so a
 * window is replaced only by a report that names it.
 */
export class PlanLimitsBook {
  private readonly byAgent = new Map<string, AgentLimitsOut>();

  record(agentKey: string, event: PlanLimitsEvent, nowMs: number): void {
    const before = this.byAgent.get(agentKey);
    const windows = new Map((before?.windows ?? []).map((w) => [w.window, w]));
    for (const w of event.windows) windows.set(w.window, w);
    this.byAgent.set(agentKey, {
      status: event.status ?? before?.status ?? null,
      windows: [...windows.values()],
      updated_at: new Date(nowMs).toISOString(),
    });
  }

  get(agentKey: string): AgentLimitsOut | null {
    return this.byAgent.get(agentKey) ?? null;
  }

  /**
   * When a limit the agent hit lifts: the latest reset among its full windows (a full
   * five-hour window inside a full weekly one waits for the week), else among all it named.
   */
  resetAt(agentKey: string, nowMs: number): Date | null {
    const windows = this.byAgent.get(agentKey)?.windows ?? [];
    const timed = windows.filter((w) => w.resets_at && Date.parse(w.resets_at) > nowMs);
    const full = timed.filter((w) => (w.used_percent ?? 0) >= 100);
    const pool = full.length ? full : timed;
    if (!pool.length) return null;
    return new Date(Math.max(...pool.map((w) => Date.parse(w.resets_at!))));
  }
}
