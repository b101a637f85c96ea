import type { AgentLimitsOut } from "@coffer/protocol";

/**
 * When a plan limit the agent reported as reached lifts (epoch ms), or null when no known limit
 * is reached now. "Known": a window the agent said is full (used ≥ 100 %) with a reset still to
 * come, or a `rejected` status with one. A full five-hour window inside a full weekly one waits
 * for the week (the latest reset among the full ones).
 */
export function limitLiftsAt(limits: AgentLimitsOut | null, now: number): number | null {
  if (!limits) return null;
  const timed = limits.windows.filter((w) => w.resets_at !== null && Date.parse(w.resets_at) > now);
  const full = timed.filter((w) => (w.used_percent ?? 0) >= 100);
  const pool = full.length ? full : limits.status === "rejected" ? timed : [];
  if (!pool.length) return null;
  return Math.max(...pool.map((w) => Date.parse(w.resets_at!)));
}
