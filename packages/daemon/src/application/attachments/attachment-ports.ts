import type { AttachmentOut } from "@coffer/protocol";

/** One described attachment: what the owner sees plus the hash its bytes are stored under. */
export interface AttachmentRow extends AttachmentOut {
  readonly sha256: string;
}

/** The attachments' rows in SQLite and their links to messages and queued messages. */
export interface AttachmentStore {
  insertAttachment(row: AttachmentRow, now: number): void;
  getAttachment(id: string): AttachmentRow | null;
  /** Link attachments, in order, to a message row (the owner's message that carried them). */
  linkMessage(messageId: string, attachmentIds: readonly string[]): void;
  /** Adds one after the message's others (a file an agent shares into its reply while it streams), with the agent's line for it. */
  appendToMessage(messageId: string, attachmentId: string, caption?: string): void;
  /** Each message's attachments, in order, for the messages given (absent key = none). */
  forMessages(messageIds: readonly string[]): Map<string, AttachmentOut[]>;
  /** Every attachment linked from this conversation's messages or queued messages. */
  idsOfConversation(conversationId: string): string[];
  /** Deletes those of `ids` nothing links any more; returns the hashes they were stored under. */
  deleteUnlinked(ids: readonly string[]): string[];
  /** Attachments created before `cutoff` that nothing links (uploads never sent), at most `limit`. */
  unlinkedBefore(cutoff: number, limit: number): string[];
  /** Whether any row still names this hash (another upload of the same bytes). */
  hashInUse(sha256: string): boolean;
  /** Rows, distinct stored files (hashes) and the bytes those files take. */
  totals(): AttachmentTotals;
}

export interface AttachmentTotals {
  readonly count: number;
  readonly files: number;
  readonly bytes: number;
}

/** The bytes, content-addressed under <data dir>/attachments. */
export interface AttachmentBlobs {
  /** Streams the body into the store, hashing as it goes; refuses past `maxBytes` (nothing kept). */
  put(body: AsyncIterable<Uint8Array>, maxBytes: number): Promise<{ sha256: string; size: number } | { tooLarge: true }>;
  /** Where a hash's bytes are (for reading and for naming to an agent). */
  pathOf(sha256: string): string;
  remove(sha256: string): void;
}

/**
 * Read-only copies of a conversation's files the agent may read: <data dir>/agent-files/<conversation
 * id>/<attachment id>/<safe name>. Derived from the store (never backed up), outside the owner's
 * working directory, gone with the conversation.
 */
export interface AgentFileCopies {
  /** Places (or finds) the copy of `source` and returns its path. */
  place(conversationId: string, attachmentId: string, name: string, source: string): string;
  /** Removes the conversation's folder (nothing there = a no-op). */
  removeConversation(conversationId: string): void;
  /** Removes folders of conversations not in `alive`; returns how many went. */
  sweepOrphans(alive: (conversationId: string) => boolean): number;
}

/** An image as the model receives it: the original when it fits, else a smaller derived copy. */
export interface ImageForModel {
  readonly path: string;
  readonly mediaType: string;
}

/**
 * Fits an image to what the models take (long side ≤ 1568 px, ≤ 3.7 MB encoded): the original
 * when it already fits, else a re-encoded copy written under `targetDir`. `null` when the bytes
 * cannot be decoded as an image: the file then goes as a plain file, never as an image block.
 */
export interface ImageFitter {
  fit(source: string, mediaType: string, targetDir: string): Promise<ImageForModel | null>;
}
