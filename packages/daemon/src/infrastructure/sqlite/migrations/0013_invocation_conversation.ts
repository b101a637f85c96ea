/**
 * The tool-call log names the agent and the conversation a call came from (the gateway knows
 * both from the call's credential), so the page can name the agent as the chat does and link
 * the call to its conversation. Both are null for the owner's own MCP client and for rows
 * logged before this migration. No foreign key: a deleted conversation's calls stay logged
 * (the log has its own age and row bounds); the list simply finds no conversation for them.
 */
export const sql = `
ALTER TABLE mcp_invocations ADD COLUMN agent_key TEXT;
ALTER TABLE mcp_invocations ADD COLUMN conversation_id TEXT;
`;
