import { AttachmentOut, ATTACHMENTS_PER_MESSAGE, MAX_MESSAGE_CHARS } from "@coffer/protocol";
import { readStored, readStoredJson, writeStored } from "../../app/stored.js";

/**
 * Unsent composer text, per conversation, in localStorage so a reload keeps it. Cleared
 * when sent, deleted with the conversation. Storage can be full or blocked: then the
 * draft simply lives as long as the page. What comes back from storage may have been planted
 * (docs/decisions.md, "Hardening II: the page's storage"): a draft only ever refills the
 * composer, where the owner still presses Send, and one longer than a message can be is ignored.
 */
const PREFIX = "coffer.draft.";

/** The key of the new-conversation draft (a conversation's key is its id). */
export const NEW_CONVERSATION_DRAFT = "new";

const storageKey = (key: string) => (key === NEW_CONVERSATION_DRAFT ? `${PREFIX}new` : `${PREFIX}c.${key}`);

export function loadDraft(key: string): string {
  return readStored(storageKey(key), MAX_MESSAGE_CHARS) ?? "";
}

export function saveDraft(key: string, text: string): void {
  writeStored(storageKey(key), text || null);
}

/** A draft's (or an unsent message's) files: described attachments, as many as one message may carry. */
const StoredFiles = AttachmentOut.array().max(ATTACHMENTS_PER_MESSAGE);
/** Generous for 20 descriptions with 255-character names, JSON-escaped. */
const MAX_FILES_CHARS = ATTACHMENTS_PER_MESSAGE * 2000;

const filesKey = (key: string) => `${PREFIX}files.${key === NEW_CONVERSATION_DRAFT ? "new" : `c.${key}`}`;

/**
 * The draft's uploaded files (their descriptions, not their bytes: those are on the daemon), so
 * the composer's chips survive a reload. A file still uploading when the page went is not kept:
 * its bytes never reached the daemon.
 */
export function loadDraftFiles(key: string): AttachmentOut[] {
  const parsed = StoredFiles.safeParse(readStoredJson(filesKey(key), MAX_FILES_CHARS));
  return parsed.success ? parsed.data : [];
}

export function saveDraftFiles(key: string, files: readonly AttachmentOut[]): void {
  writeStored(filesKey(key), files.length ? JSON.stringify(files) : null);
}

export function deleteDraft(key: string): void {
  saveDraft(key, "");
  saveDraftFiles(key, []);
  if (key !== NEW_CONVERSATION_DRAFT) saveUnsent(key, []);
}

/**
 * Messages sent but not yet acknowledged by the daemon ("Sending…", "Not sent · Retry"), per
 * conversation, so a reload (or a crash of the tab) does not lose them. Read back, they are
 * only offered to the owner (use-outgoing.ts): storage is not proof the owner wrote them.
 */
export interface UnsentMessage {
  readonly clientId: string;
  readonly text: string;
  /** Files sent with it (absent when none); with files, the text may be empty. */
  readonly attachments?: readonly AttachmentOut[];
}

/** The most unsent messages kept per conversation; more than this in storage is not the page's doing. */
export const MAX_UNSENT = 20;
/** The largest outbox the page could have written (JSON may escape a character as six). */
export const MAX_OUTBOX_CHARS = MAX_UNSENT * ((MAX_MESSAGE_CHARS + 100) * 6 + MAX_FILES_CHARS);
/** The page's own idempotency keys are crypto.randomUUID(). */
const CLIENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const outboxKey = (conversationId: string) => `${PREFIX}outbox.${conversationId}`;

function asUnsent(value: unknown): UnsentMessage | null {
  if (typeof value !== "object" || value === null) return null;
  const { clientId, text, attachments } = value as Record<string, unknown>;
  if (typeof clientId !== "string" || !CLIENT_ID.test(clientId)) return null;
  const files = attachments === undefined ? [] : StoredFiles.safeParse(attachments).data;
  if (!files || typeof text !== "string" || (!text.trim() && files.length === 0) || text.length > MAX_MESSAGE_CHARS) return null;
  return files.length ? { clientId, text, attachments: files } : { clientId, text };
}

export function loadUnsent(conversationId: string): UnsentMessage[] {
  const parsed = readStoredJson(outboxKey(conversationId), MAX_OUTBOX_CHARS);
  if (!Array.isArray(parsed)) return [];
  return parsed
    .map(asUnsent)
    .filter((m): m is UnsentMessage => m !== null)
    .slice(0, MAX_UNSENT);
}

export function saveUnsent(conversationId: string, messages: readonly UnsentMessage[]): void {
  const kept = messages.slice(-MAX_UNSENT).map(({ clientId, text, attachments }) => (attachments?.length ? { clientId, text, attachments } : { clientId, text }));
  writeStored(outboxKey(conversationId), kept.length ? JSON.stringify(kept) : null);
}
