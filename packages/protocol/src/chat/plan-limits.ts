import { z } from "zod";

/**
 * An agent's plan (subscription) limits as the agent itself reports them: Claude Code's
 * `rate_limit_event` (claude.ai sign-in), Codex's `account/rateLimits/updated`. Kept per agent
 * in the daemon's memory; GET /chat/agents carries the latest.
 */
export const LimitWindow = z.object({
  window: z.string().describe("The agent's name for it: five_hour, seven_day, … (Claude); primary, secondary (Codex)."),
  used_percent: z.number().nullable().describe("0–100, when the agent says."),
  resets_at: z.string().nullable().describe("ISO time the window resets, when the agent says."),
  window_minutes: z.number().int().nullable(),
});
export type LimitWindow = z.infer<typeof LimitWindow>;

export const PlanLimitStatus = z.enum(["allowed", "warning", "rejected"]);
export type PlanLimitStatus = z.infer<typeof PlanLimitStatus>;

/** An adapter's report of its plan limits (an AgentEvent the engine records, not content). */
export const PlanLimitsEvent = z.object({
  type: z.literal("plan_limits"),
  status: PlanLimitStatus.nullable(),
  windows: z.array(LimitWindow),
});
export type PlanLimitsEvent = z.infer<typeof PlanLimitsEvent>;

/** The latest snapshot per agent, on GET /chat/agents (null until the agent has reported one). */
export const AgentLimitsOut = z.object({
  status: PlanLimitStatus.nullable(),
  windows: z.array(LimitWindow),
  updated_at: z.string(),
});
export type AgentLimitsOut = z.infer<typeof AgentLimitsOut>;

/** Why a held queue waits: the owner (interrupt, restart) or a plan limit until its reset. */
export const QueueHold = z.object({
  reason: z.literal("plan_limit"),
  until: z.string().describe("ISO time the queue resumes by itself; the owner may resume earlier."),
});
export type QueueHold = z.infer<typeof QueueHold>;

/** "Paused until 14:05 — plan limit" (the date too when the reset is not today), for every surface. */
export function holdLabel(hold: QueueHold, now: Date = new Date()): string {
  const until = new Date(hold.until);
  const time = until.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hour12: false });
  const sameDay = until.toDateString() === now.toDateString();
  const when = sameDay ? time : `${until.toLocaleDateString([], { month: "short", day: "numeric" })} ${time}`;
  return `Paused until ${when} — plan limit`;
}
