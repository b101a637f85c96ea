import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { INLINE_IMAGE_TYPES, ROUTES } from "@coffer/protocol";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";
import { RESOURCE_HEADERS } from "../middleware/secure-headers.js";

/**
 * `Content-Disposition` with the name twice: an ASCII fallback (quotes, controls and non-ASCII
 * replaced) and the exact name, percent-encoded (RFC 6266 / 5987).
 */
export function contentDisposition(kind: "inline" | "attachment", name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const exact = encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

export function attachmentRoutes(bind: RouteBinder, { attachments }: HttpDeps): void {
  bind
    .route(ROUTES.attachmentLimits, () => ({ max_bytes: attachments.maxBytes }))
    .route(ROUTES.uploadAttachment, async ({ query, c }) => {
      try {
        // The request's body stream (the one the body limit counts, also when it is chunked), read
        // chunk by chunk into the store, never buffered whole.
        const length = Number(c.req.header("content-length") ?? Number.NaN);
        return await attachments.upload(query.name, c.req.header("content-type"), chunksOf(c.req.raw.body), Number.isSafeInteger(length) ? length : undefined);
      } catch (err) {
        // A refused upload leaves the rest of its body unread: discard it, so the client reads our answer.
        c.env.incoming.resume();
        throw err;
      }
    })
    .raw(ROUTES.downloadAttachment, (c) => {
      const { attachment, path } = attachments.open(c.req.param("id") ?? "");
      // Only plain raster images are shown in the page; everything else (SVG and HTML above all,
      // which can run script) is a download of opaque bytes, never rendered by the browser.
      const inline = INLINE_IMAGE_TYPES.includes(attachment.media_type);
      c.set("secured", true);
      return new Response(Readable.toWeb(createReadStream(path)) as ReadableStream, {
        status: 200,
        headers: {
          ...RESOURCE_HEADERS,
          "content-type": inline ? attachment.media_type : "application/octet-stream",
          "content-length": String(attachment.size),
          "content-disposition": contentDisposition(inline ? "inline" : "attachment", attachment.name),
          "x-content-type-options": "nosniff",
          "cache-control": "private, max-age=31536000, immutable",
        },
      });
    });
}

/** A web body stream as chunks (through its reader: the DOM typings give ReadableStream no async iterator). */
async function* chunksOf(body: ReadableStream<Uint8Array> | null): AsyncIterable<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Stopped early (over the cap): release the stream; the route discards the rest of the request.
    await reader.cancel().catch(() => undefined);
  }
}
