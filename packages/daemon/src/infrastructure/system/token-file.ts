import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { Logger } from "../../application/ports.js";
import { readPrivateFile, writePrivateFileAtomic } from "./private-files.js";

/** 32 random bytes in base64url: exactly 43 characters of that alphabet. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The token in `<data dir>/token` (0600, never through a link). A file holding anything but a
 * token of the expected shape (control bytes, a truncated write) is replaced by a fresh token,
 * atomically, with a warning that never quotes the old content.
 */
export function loadOrCreateToken(home: string, logger: Logger): string {
  const file = join(home, "token");
  const existing = readPrivateFile(file);
  if (existing !== null) {
    const text = existing.toString("utf8").replace(/\n$/, "");
    if (TOKEN_SHAPE.test(text)) return text;
    logger.warn("the token file did not hold a valid token (43 base64url characters); a new token was written", { file });
  }
  const token = randomBytes(32).toString("base64url");
  writePrivateFileAtomic(file, `${token}\n`);
  return token;
}
