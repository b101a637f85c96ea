import { z } from "zod";
import type { RouteSpec } from "../wire/route-spec.js";

/**
 * One attachment model (issue 25): a file the owner sent with a message, stored once in the
 * data dir (content-addressed) and described in SQLite. Uploaded alone first (`POST
 * /attachments`, the raw bytes as the body), then named by id when the message is sent.
 */

/** The default cap on one attached file (COFFER_ATTACHMENT_MAX_MB changes it, up to the ceiling). */
export const ATTACHMENT_DEFAULT_MAX_BYTES = 50 * 1024 * 1024;
/** The most any configuration may allow: the upload route's body limit. */
export const ATTACHMENT_CEILING_BYTES = 100 * 1024 * 1024;
/** The most attachments one message may carry. */
export const ATTACHMENTS_PER_MESSAGE = 20;
/** The longest file name kept, in characters (what the owner sees; the blob is named by its hash). */
export const ATTACHMENT_MAX_NAME_CHARS = 255;

/** `type/subtype`, as RFC 6838 spells the names (parameters such as `; charset=` are dropped). */
export const MEDIA_TYPE_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** Images a browser shows inline without running anything; SVG is not one (it can carry script). */
export const INLINE_IMAGE_TYPES: readonly string[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

export const AttachmentId = z.string().min(1).max(64);

export const AttachmentOut = z.object({
  id: AttachmentId,
  name: z.string(),
  media_type: z.string().describe("As uploaded (lower case, without parameters)."),
  size: z.number().int().nonnegative().describe("Bytes."),
  caption: z.string().optional().describe("The agent's line for a file it shared (coffer__share_file)."),
});
export type AttachmentOut = z.infer<typeof AttachmentOut>;

export const AttachmentUploadQuery = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(ATTACHMENT_MAX_NAME_CHARS)
    .refine((n) => !/[\0/\\]/.test(n), { message: "must be a file name without '/', '\\' or NUL" })
    .describe("The file's name as the owner sees it (the body's Content-Type is its media type)."),
});

/** Ids of uploaded attachments a message carries, in order. */
export const AttachmentIds = z.array(AttachmentId).max(ATTACHMENTS_PER_MESSAGE).refine((ids) => new Set(ids).size === ids.length, {
  message: "an attachment is named twice",
});

/** The cap clients read before uploading (the page and the CLI refuse a bigger file up front). */
export const AttachmentLimitsOut = z.object({
  max_bytes: z.number().int().positive().describe("The most bytes one attached file may have (COFFER_ATTACHMENT_MAX_MB)."),
});
export type AttachmentLimitsOut = z.infer<typeof AttachmentLimitsOut>;

export const ATTACHMENT_ROUTES = {
  // Before downloadAttachment: "/attachments/limits" is not an attachment id.
  attachmentLimits: {
    method: "get",
    path: "/attachments/limits",
    summary: "The attachment cap: the most bytes one file may have, so a client refuses a bigger one before uploading",
    responses: { 200: AttachmentLimitsOut },
  },
  uploadAttachment: {
    method: "post",
    path: "/attachments",
    summary: "Store one file to attach to a message: the raw bytes as the body, its media type as Content-Type, its name in ?name=",
    query: AttachmentUploadQuery,
    maxBodyBytes: ATTACHMENT_CEILING_BYTES,
    responses: { 201: AttachmentOut },
  },
  downloadAttachment: {
    method: "get",
    path: "/attachments/{id}",
    summary: "An attachment's bytes: images inline, everything else as a download (never rendered, nosniff)",
    responses: { 200: null },
  },
} as const satisfies Record<string, RouteSpec>;

/** 1536 → "1.5 KB": one wording of a file's size for the page, the CLI and the phone. */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, "")} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, "")} MB`;
  return `${(bytes / 1024 ** 3).toFixed(1).replace(/\.0$/, "")} GB`;
}
