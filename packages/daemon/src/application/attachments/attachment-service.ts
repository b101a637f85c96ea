import { MEDIA_TYPE_PATTERN, type AttachmentOut } from "@coffer/protocol";
import { AttachmentEmpty, AttachmentNotFound, AttachmentTooLarge, AttachmentTypeInvalid } from "../../domain/errors.js";
import type { Clock, IdGenerator, Transactor } from "../ports.js";
import { dirname, join } from "node:path";
import type { AgentFileCopies, AttachmentBlobs, AttachmentRow, AttachmentStore, AttachmentTotals, ImageFitter, ImageForModel } from "./attachment-ports.js";

/** How long an upload waits to be sent with a message before a retention pass removes it. */
export const UNSENT_GRACE_MS = 86_400_000;

export interface AttachmentServiceDeps {
  readonly tx: Transactor;
  readonly store: AttachmentStore;
  readonly blobs: AttachmentBlobs;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** The cap on one file (COFFER_ATTACHMENT_MAX_MB). */
  readonly maxBytes: number;
  /** The agents' read-only copies; absent = the agent is named the stored path itself. */
  readonly copies?: AgentFileCopies;
  /** Fits images to the models' limits; absent = images go as they are. */
  readonly fitter?: ImageFitter;
}

/** `image/PNG; charset=x` → `image/png`, or null when it is not a media type at all. */
export function normalMediaType(header: string | undefined): string | null {
  const bare = (header ?? "").split(";")[0]!.trim().toLowerCase();
  return MEDIA_TYPE_PATTERN.test(bare) ? bare : null;
}

/**
 * One attachment model (issue 25): uploads stored and described, looked up for a message or a
 * download, and forgotten with their conversation — the row when nothing links it, the bytes
 * when no row names their hash (docs/decisions.md, "One attachment model").
 */
export class AttachmentService {
  constructor(private readonly deps: AttachmentServiceDeps) {}

  get maxBytes(): number {
    return this.deps.maxBytes;
  }

  /** What the attachments take (GET /system/stats, Settings → Data, `coffer stats`). */
  totals(): AttachmentTotals {
    return this.deps.store.totals();
  }

  /**
   * `declaredBytes` is the request's Content-Length when it sent one: over the cap, the upload is
   * refused before a byte is read (a 60 MB file is not written to disk up to the cap first, and
   * the client hears at once). The stream is still counted: a length can lie, or be absent.
   */
  async upload(name: string, contentType: string | undefined, body: AsyncIterable<Uint8Array>, declaredBytes?: number): Promise<AttachmentOut> {
    const mediaType = normalMediaType(contentType);
    if (!mediaType) throw new AttachmentTypeInvalid();
    if (declaredBytes !== undefined && declaredBytes > this.deps.maxBytes) throw new AttachmentTooLarge(this.deps.maxBytes);
    const stored = await this.deps.blobs.put(body, this.deps.maxBytes);
    if ("tooLarge" in stored) throw new AttachmentTooLarge(this.deps.maxBytes);
    if (stored.size === 0) {
      if (!this.deps.store.hashInUse(stored.sha256)) this.deps.blobs.remove(stored.sha256);
      throw new AttachmentEmpty();
    }
    const row: AttachmentRow = { id: this.deps.ids(), sha256: stored.sha256, name, media_type: mediaType, size: stored.size };
    this.deps.store.insertAttachment(row, this.deps.clock.now());
    return { id: row.id, name: row.name, media_type: row.media_type, size: row.size };
  }

  /** The row and where its bytes are, for a download or for naming the file to an agent. */
  open(id: string): { readonly attachment: AttachmentOut; readonly path: string } {
    const row = this.deps.store.getAttachment(id);
    if (!row) throw new AttachmentNotFound(id);
    return { attachment: { id: row.id, name: row.name, media_type: row.media_type, size: row.size }, path: this.deps.blobs.pathOf(row.sha256) };
  }

  /**
   * Where the agent reads a file a message of this conversation carries: its read-only copy under
   * agent-files/ (made now, when the turn starts), never the private store nor the working directory.
   */
  agentPath(conversationId: string, id: string): string {
    const { attachment, path } = this.open(id);
    return this.deps.copies ? this.deps.copies.place(conversationId, id, attachment.name, path) : path;
  }

  /**
   * The image as the model gets it: the copy itself when it fits, else a derived file beside it
   * (`<copy's folder>/for-model/`); null when it cannot be decoded (it then goes as a plain file).
   */
  async imageForModel(copyPath: string, mediaType: string): Promise<ImageForModel | null> {
    if (!this.deps.fitter) return { path: copyPath, mediaType };
    return this.deps.fitter.fit(copyPath, mediaType, join(dirname(copyPath), "for-model"));
  }

  /** A deleted conversation's agent copies go with it (owner delete and retention alike). */
  forgetCopies(conversationId: string): void {
    this.deps.copies?.removeConversation(conversationId);
  }

  /** Folders left by conversations that no longer exist (a crash between delete and cleanup). */
  sweepOrphanCopies(alive: (conversationId: string) => boolean): number {
    return this.deps.copies?.sweepOrphans(alive) ?? 0;
  }

  /** The described attachments for ids a message names, in order; refuses an unknown id before anything is written. */
  describe(ids: readonly string[]): AttachmentOut[] {
    return ids.map((id) => this.open(id).attachment);
  }

  /**
   * Uploads never sent with a message go once they are a day old (the page may upload while the
   * owner still writes; a day covers any draft worth keeping). Runs with each retention pass.
   */
  sweepUnsent(): number {
    const ids = this.deps.store.unlinkedBefore(this.deps.clock.now() - UNSENT_GRACE_MS, 500);
    this.release(ids);
    return ids.length;
  }

  /** Before a conversation is deleted: what it links (its links go with its rows). */
  linkedTo(conversationId: string): string[] {
    return this.deps.store.idsOfConversation(conversationId);
  }

  /** After: the rows nothing links any more go, then the bytes no row names. */
  release(ids: readonly string[]): void {
    if (ids.length === 0) return;
    const hashes = this.deps.tx.transaction(() => this.deps.store.deleteUnlinked(ids));
    for (const sha256 of new Set(hashes)) if (!this.deps.store.hashInUse(sha256)) this.deps.blobs.remove(sha256);
  }
}
