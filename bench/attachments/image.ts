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
