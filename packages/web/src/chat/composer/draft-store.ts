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
}
