import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import { join } from "node:path";
import type { AttachmentBlobs } from "../../application/attachments/attachment-ports.js";
import { ensurePrivateDir, removePrivateFile } from "./private-files.js";

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Attachments' bytes, stored once per content: <root>/<sha256[0:2]>/<sha256>, folders 0700,
 * files 0600. An upload streams into a temp file beside its final place (never held whole in
 * memory), is fsynced, then linked into place: the first writer of a hash wins and a second
 * upload of the same bytes only drops its temp file. A crash leaves at most a `.tmp` file.
 */
export class FileAttachmentBlobs implements AttachmentBlobs {
  constructor(private readonly root: string) {}

  async put(body: AsyncIterable<Uint8Array>, maxBytes: number): Promise<{ sha256: string; size: number } | { tooLarge: true }> {
    ensurePrivateDir(this.root);
    const temp = join(this.root, `.upload.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
    const fd = fs.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
    const hash = createHash("sha256");
    let size = 0;
    try {
      for await (const chunk of body) {
        size += chunk.length;
        if (size > maxBytes) return { tooLarge: true };
        hash.update(chunk);
        let written = 0;
        while (written < chunk.length) written += fs.writeSync(fd, chunk, written);
      }
      fs.fsyncSync(fd);
      const sha256 = hash.digest("hex");
      const dir = join(this.root, sha256.slice(0, 2));
      ensurePrivateDir(dir);
      try {
        fs.linkSync(temp, join(dir, sha256));
      } catch (err) {
        // The same bytes are already stored: keep the first copy.
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
      return { sha256, size };
    } finally {
      fs.closeSync(fd);
      // Placed or refused, the temp name goes (a refused upload keeps nothing).
      fs.rmSync(temp, { force: true });
    }
  }

  pathOf(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error("not a sha256 hash");
    return join(this.root, sha256.slice(0, 2), sha256);
  }

  remove(sha256: string): void {
    removePrivateFile(this.pathOf(sha256));
  }
}
