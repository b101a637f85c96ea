/**
 * Unsent composer text, per conversation, in localStorage so a reload keeps it. Cleared
 * when sent, deleted with the conversation. Storage can be full or blocked: then the
 * draft simply lives as long as the page.
 */
const PREFIX = "coffer.draft.";

/** The key of the new-conversation draft (a conversation's key is its id). */
export const NEW_CONVERSATION_DRAFT = "new";

const storageKey = (key: string) => (key === NEW_CONVERSATION_DRAFT ? `${PREFIX}new` : `${PREFIX}c.${key}`);

export function loadDraft(key: string): string {
  try {
    return localStorage.getItem(storageKey(key)) ?? "";
  } catch {
    return "";
  }
}

export function saveDraft(key: string, text: string): void {
  try {
    if (text) localStorage.setItem(storageKey(key), text);
    else localStorage.removeItem(storageKey(key));
  } catch {
    // Full or blocked storage: the text stays in the composer, only a reload would lose it.
  }
}

export function deleteDraft(key: string): void {
  saveDraft(key, "");
  if (key !== NEW_CONVERSATION_DRAFT) saveUnsent(key, []);
}

/**
 * Messages sent but not yet acknowledged by the daemon ("Sending…", "Not sent · Retry"), per
 * conversation, so a reload (or a crash of the tab) does not lose them: they come back and are
 * sent again with the same idempotency key, which the daemon turns into at most one message.
 */
export interface UnsentMessage {
  readonly clientId: string;
  readonly text: string;
}

const outboxKey = (conversationId: string) => `${PREFIX}outbox.${conversationId}`;

export function loadUnsent(conversationId: string): UnsentMessage[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(outboxKey(conversationId)) ?? "[]");
    return Array.isArray(parsed)
      ? parsed.filter((m): m is UnsentMessage => typeof m?.clientId === "string" && typeof m?.text === "string")
      : [];
  } catch {
    return [];
  }
}

export function saveUnsent(conversationId: string, messages: readonly UnsentMessage[]): void {
  try {
    if (messages.length) localStorage.setItem(outboxKey(conversationId), JSON.stringify(messages.map(({ clientId, text }) => ({ clientId, text }))));
    else localStorage.removeItem(outboxKey(conversationId));
  } catch {
    // Full or blocked storage: the message stays on the page, only a reload would lose it.
  }
}
