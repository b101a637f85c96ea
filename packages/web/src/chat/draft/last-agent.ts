import { readStored, writeStored } from "../../app/stored.js";

const LAST_AGENT = "coffer.lastAgent";
/** An agent key as the daemon lists them (conversations.ts: at most 64 characters). */
const AGENT_KEY = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * The agent the owner last started a chat with, to preselect it on the next new chat. Only
 * a key's shape is checked here; the draft page uses it only if the daemon lists that agent
 * as available, so a planted key picks nothing the owner would not see in the picker.
 */
export function lastAgent(): string | null {
  const value = readStored(LAST_AGENT, 64);
  return value !== null && AGENT_KEY.test(value) ? value : null;
}

export function rememberAgent(agentKey: string): void {
  writeStored(LAST_AGENT, agentKey);
}
