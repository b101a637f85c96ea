import { z } from "zod";
import { AgentKey } from "./common.js";

export const AgentOut = z.object({
  agent_key: AgentKey,
  display_name: z.string(),
  available: z.boolean(),
});
export type AgentOut = z.infer<typeof AgentOut>;

export const AgentListOut = z.object({ agents: z.array(AgentOut) });
export type AgentListOut = z.infer<typeof AgentListOut>;
