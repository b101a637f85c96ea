import type { UnsentMessage } from "./draft-store.js";

/**
 * What the owner sent from THIS page and the daemon has not yet acknowledged, per
 * conversation. It lives in memory, which no other page can write, so it is the one record
 * that may be sent again without a click when the conversation's view comes back; whatever
 * localStorage holds beyond it is only offered for review (docs/decisions.md, "Hardening II:
 * the page's storage").
 */
const held = new Map<string, ReadonlyMap<string, string>>();

export function heldMessages(conversationId: string): UnsentMessage[] {
  return [...(held.get(conversationId) ?? new Map<string, string>())].map(([clientId, text]) => ({ clientId, text }));
}

/** Hold exactly these for the conversation (what left the page's outbox is forgotten). */
export function holdOnly(conversationId: string, messages: readonly UnsentMessage[]): void {
  if (messages.length) held.set(conversationId, new Map(messages.map((m) => [m.clientId, m.text])));
  else held.delete(conversationId);
}
