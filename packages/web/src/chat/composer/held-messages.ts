import type { UnsentMessage } from "./draft-store.js";

/**
 * What the owner sent from THIS page and the daemon has not yet acknowledged, per
 * conversation. It lives in memory, which no other page can write, so it is the one record
 * that may be sent again without a click when the conversation's view comes back; whatever
 * localStorage holds beyond it is only offered for review (docs/decisions.md, "Hardening II:
 * the page's storage").
 */
const held = new Map<string, readonly UnsentMessage[]>();

export function heldMessages(conversationId: string): UnsentMessage[] {
  return [...(held.get(conversationId) ?? [])];
}

/** Hold exactly these for the conversation (what left the page's outbox is forgotten). */
export function holdOnly(conversationId: string, messages: readonly UnsentMessage[]): void {
  // Copied field by field: an outbox entry also carries its on-screen state, which is not held.
  if (messages.length) held.set(conversationId, messages.map(({ clientId, text, attachments }) => (attachments?.length ? { clientId, text, attachments } : { clientId, text })));
  else held.delete(conversationId);
}
