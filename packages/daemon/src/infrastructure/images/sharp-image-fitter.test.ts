import { randomBytes } from "node:crypto";
import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, test } from "vitest";
import { MAX_SIDE, SharpImageFitter } from "./sharp-image-fitter.js";

const dir = () => mkdtempSync(join(tmpdir(), "coffer-fit-"));

describe("images fitted to the models' limits", () => {
  const fitter = new SharpImageFitter();

  test("an image that already fits goes as it is", async () => {
    const d = dir();
    const path = join(d, "small.png");
    await sharp({ create: { width: 40, height: 30, channels: 3, background: "#c33" } }).png().toFile(path);
    expect(await fitter.fit(path, "image/png", join(d, "for-model"))).toEqual({ path, mediaType: "image/png" });
  });

  test("a large image with alpha keeps it (WebP), long side at most 1568 px, file 0400", async () => {
    const d = dir();
    const path = join(d, "wide.png");
    await sharp(randomBytes(2400 * 600 * 4), { raw: { width: 2400, height: 600, channels: 4 } }).png().toFile(path);
    const out = await fitter.fit(path, "image/png", join(d, "for-model"));
    expect(out).toEqual({ path: join(d, "for-model", "image.webp"), mediaType: "image/webp" });
    const meta = await sharp(out!.path).metadata();
    expect(meta.width).toBe(MAX_SIDE);
    expect(meta.hasAlpha).toBe(true);
    expect(statSync(out!.path).mode & 0o777).toBe(0o400);
  });

  test("bytes that are not an image are not an image block", async () => {
    const d = dir();
    const path = join(d, "fake.png");
    writeFileSync(path, "not really a png");
    expect(await fitter.fit(path, "image/png", join(d, "for-model"))).toBeNull();
  });
});
