import { AgentMark } from "../ui/icons.js";
import { useAgents } from "./queries.js";

/**
 * An agent's mark where only its key is at hand (a conversation, a history row): the glyph
 * the daemon names for it in GET /chat/agents; the neutral mark until that list is there.
 */
export function AgentMarkOf({ agentKey, size }: { agentKey: string; size?: number }) {
  const glyph = useAgents().data?.agents.find((a) => a.agent_key === agentKey)?.glyph;
  return <AgentMark glyph={glyph} {...(size !== undefined ? { size } : {})} />;
}
