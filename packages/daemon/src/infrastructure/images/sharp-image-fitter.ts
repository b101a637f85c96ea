import * as fs from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import type { ImageFitter, ImageForModel } from "../../application/attachments/attachment-ports.js";

/** Anthropic's guidance: a long side past 1568 px is scaled down by the API anyway (and costs the upload). */
export const MAX_SIDE = 1568;
/** Under Anthropic's 5 MB per image once base64 grows it by a third. */
export const MAX_BYTES = 3_700_000;
const QUALITIES = [85, 75, 65, 50];

/**
 * sharp (libvips) fits an owner's image to the models' limits. A photo (no alpha) becomes JPEG
 * q85 (lower only if still too big); an image with alpha becomes WebP, which keeps it (PNG of a
 * photo-like image would rarely fit the byte bar). The derived file is 0400, in its own folder.
 */
export class SharpImageFitter implements ImageFitter {
  async fit(source: string, mediaType: string, targetDir: string): Promise<ImageForModel | null> {
    let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
    try {
      meta = await sharp(source).metadata();
    } catch {
      return null;
    }
    if (!meta.width || !meta.height) return null;
    const size = fs.statSync(source).size;
    if (meta.width <= MAX_SIDE && meta.height <= MAX_SIDE && size <= MAX_BYTES) return { path: source, mediaType };
    const alpha = meta.hasAlpha === true;
    const out = join(targetDir, alpha ? "image.webp" : "image.jpg");
    const seen = fs.statSync(out, { throwIfNoEntry: false });
    if (seen?.isFile()) return { path: out, mediaType: alpha ? "image/webp" : "image/jpeg" };
    fs.mkdirSync(targetDir, { recursive: true, mode: 0o700 });
    try {
      for (const quality of QUALITIES) {
        const resized = sharp(source).rotate().resize({ width: MAX_SIDE, height: MAX_SIDE, fit: "inside", withoutEnlargement: true });
        const bytes = await (alpha ? resized.webp({ quality }) : resized.jpeg({ quality })).toBuffer();
        if (bytes.length <= MAX_BYTES || quality === QUALITIES[QUALITIES.length - 1]) {
          const temp = `${out}.${process.pid}.tmp`;
          fs.writeFileSync(temp, bytes, { mode: 0o400 });
          fs.renameSync(temp, out);
          return { path: out, mediaType: alpha ? "image/webp" : "image/jpeg" };
        }
      }
    } catch {
      // Decoded the header but not the pixels (a truncated file): a plain file, not a poisoned session.
      return null;
    }
    return null;
  }
}
