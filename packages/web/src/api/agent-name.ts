import { useCallback } from "react";
import { useAgents } from "./queries.js";

/**
 * An agent as the page names it ("Claude Code" for claude_code): the name the daemon gives it
 * in GET /chat/agents, the key itself until that list is there. The chat, the Channels page and
 * the Tool calls log all name agents through this.
 */
export function useAgentName(): (agentKey: string) => string {
  const agents = useAgents().data?.agents;
  return useCallback((agentKey: string) => agents?.find((a) => a.agent_key === agentKey)?.display_name ?? agentKey, [agents]);
}
