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

export const AgentListOut = z.object({ agents: z.array(AgentOut) });
export type AgentListOut = z.infer<typeof AgentListOut>;
