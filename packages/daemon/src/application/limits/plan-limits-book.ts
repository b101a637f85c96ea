import type { AgentLimitsOut, LimitWindow, PlanLimitsEvent } from "@coffer/protocol";

/**
 * The latest plan limits each agent reported (issue 14, part 4). In memory: the agents
 * repeat them on every model call, so a restart loses nothing worth a table.
 * Codex's updates are sparse ("a null does not clear a previously observed value"), so a
 * window is replaced only by a report that names it.
 */
export class PlanLimitsBook {
  private readonly byAgent = new Map<string, AgentLimitsOut>();
  private readonly listeners: ((agentKey: string) => void)[] = [];

  /** Hear of every report (send-later's "at the limit reset" messages follow a moved reset). */
  onRecord(listener: (agentKey: string) => void): void {
    this.listeners.push(listener);
  }

  record(agentKey: string, event: PlanLimitsEvent, nowMs: number): void {
    const before = this.byAgent.get(agentKey);
    const windows = new Map((before?.windows ?? []).map((w) => [w.window, w]));
    for (const w of event.windows) windows.set(w.window, w);
    this.byAgent.set(agentKey, {
      status: event.status ?? before?.status ?? null,
      windows: [...windows.values()],
      updated_at: new Date(nowMs).toISOString(),
    });
    for (const listener of this.listeners) listener(agentKey);
  }

  /**
   * The snapshot as it stands at `nowMs`: a window past its reset no longer holds the figure
   * the agent reported before it (that "100% used" is over), so it reads unknown until the
   * agent reports again; a "rejected" that no unexpired full window backs reads unknown too.
   * Otherwise the page's gauge would say "full" while the queue has resumed and turns run.
   */
  get(agentKey: string, nowMs: number): AgentLimitsOut | null {
    const snapshot = this.byAgent.get(agentKey);
    if (!snapshot) return null;
    const over = (w: LimitWindow) => w.resets_at !== null && Date.parse(w.resets_at) <= nowMs;
    if (!snapshot.windows.some(over)) return snapshot;
    const windows = snapshot.windows.map((w) => (over(w) ? { ...w, used_percent: null, resets_at: null } : w));
    const stillFull = windows.some((w) => (w.used_percent ?? 0) >= 100);
    const status = snapshot.status === "rejected" && !stillFull ? null : snapshot.status;
    return { ...snapshot, status, windows };
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
