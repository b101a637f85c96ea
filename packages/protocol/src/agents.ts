import { z } from "zod";
import { AgentKey } from "./common.js";
import { AgentLimitsOut } from "./plan-limits.js";

export const AgentOut = z.object({
  agent_key: AgentKey,
  display_name: z.string(),
  available: z.boolean(),
  limits: AgentLimitsOut.optional().describe("The agent's plan limits as it last reported them (in memory since the daemon started); absent until it has."),
});
export type AgentOut = z.infer<typeof AgentOut>;

export const AgentListOut = z.object({
  agents: z.array(AgentOut),
  workspace: z.string().optional().describe("Where an agent runs when its conversation names no folder (COFFER_WORKSPACE); absolute."),
});
export type AgentListOut = z.infer<typeof AgentListOut>;

/** One model the agent can run on, as the agent names it (`id` is what the model field takes). */
export const AgentModelOut = z.object({
  id: z.string(),
  label: z.string().nullable().describe("The agent's display name for it, when it gives one."),
  description: z.string().nullable(),
  source: z.enum(["agent", "recent"]).describe("agent: the agent lists it; recent: only used lately in this agent's conversations."),
});
export type AgentModelOut = z.infer<typeof AgentModelOut>;

/**
 * The model field's suggestions for one agent: what the agent itself says it supports (Codex
 * `model/list`, Claude Code's supported models), then models recently used with it. When the
 * agent cannot say (not installed, not signed in, it failed), `models` holds the recent ones
 * only and `reason` says why.
 */
export const AgentModelListOut = z.object({
  agent_key: AgentKey,
  models: z.array(AgentModelOut),
  from_agent: z.boolean().describe("The agent answered (its answer is cached by the daemon)."),
  reason: z.string().nullable().describe("Why the agent's own list is missing; null when it answered."),
});
export type AgentModelListOut = z.infer<typeof AgentModelListOut>;
