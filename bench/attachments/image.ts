/** The bench's test image: real PNG bytes, generated here (nothing downloaded). */
import { randomBytes } from "node:crypto";
import sharp from "sharp";

/**
 * A PNG of random noise, stored uncompressed: noise is a photo's worst case (it does not
 * compress) and the size is exact — about `mb` MB of real, decodable image bytes.
 */
export async function noisePng(mb: number): Promise<Buffer> {
  const side = Math.ceil(Math.sqrt((mb * 1024 * 1024) / 3));
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/**
 * A JPEG of random noise of at least `mb` MB: what Telegram delivers for a photo (it re-encodes
 * every photo as JPEG; the daemon stores it as image/jpeg). Noise at quality 95 without chroma
 * subsampling takes about 2 bytes a pixel; the side grows until the size is reached.
 */
export async function noiseJpeg(mb: number): Promise<Buffer> {
  const target = mb * 1024 * 1024;
  let side = Math.ceil(Math.sqrt(target / 2));
  for (;;) {
    const jpeg = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
      .jpeg({ quality: 95, chromaSubsampling: "4:4:4" })
      .toBuffer();
    if (jpeg.length >= target) return jpeg;
    side = Math.ceil(side * 1.03);
  }
}
