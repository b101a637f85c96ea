import { createHash, randomBytes } from "node:crypto";

/** The credentials master key: AES-256-GCM seals every stored credential with it. */
export interface MasterKey {
  readonly key: Buffer;
  /** A short fingerprint stored beside each sealed row (never the key). */
  readonly id: string;
}

/**
 * Where the master key is kept (the OS keyring, or a 0600 file in the data dir;
 * master-key-source.ts chooses). `get()` makes the key on first use and caches it; it throws a
 * DomainError (CREDENTIALS_KEY_CORRUPT, CREDENTIALS_KEY_UNAVAILABLE, STORAGE_FULL) it cannot give one.
 */
export interface MasterKeySource {
  get(): MasterKey;
  /** Where the key lives, for the log (never the key). */
  readonly where: string;
}

export const KEY_BYTES = 32;

/** A new key as it is stored: base64 text. */
export function newKeyText(): string {
  return randomBytes(KEY_BYTES).toString("base64");
}

/** The key in stored text, or null when the text is not a 32-byte base64 key. */
export function parseKeyText(text: string): Buffer | null {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) return null;
  const key = Buffer.from(trimmed, "base64");
  return key.length === KEY_BYTES ? key : null;
}

export function masterKey(key: Buffer): MasterKey {
  return { key, id: createHash("sha256").update(key).digest("hex").slice(0, 16) };
}
