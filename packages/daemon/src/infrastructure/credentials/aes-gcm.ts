import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

export interface Sealed {
  readonly nonce: Uint8Array;
  readonly ciphertext: Uint8Array;
  readonly tag: Uint8Array;
}

const ALGORITHM = "aes-256-gcm";
const NONCE_BYTES = 12;

/**
 * AES-256-GCM with a fresh 96-bit nonce per seal. `aad` binds the ciphertext to its ref, so a
 * sealed value copied onto another row fails to open instead of answering for the wrong name.
 */
export function seal(key: Buffer, plaintext: string, aad: string): Sealed {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, nonce);
  cipher.setAAD(Buffer.from(aad, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return { nonce, ciphertext, tag: cipher.getAuthTag() };
}

/** Throws when the key, the aad or any byte is wrong (GCM authentication). */
export function open(key: Buffer, sealed: Sealed, aad: string): string {
  const decipher = createDecipheriv(ALGORITHM, key, sealed.nonce);
  decipher.setAAD(Buffer.from(aad, "utf8"));
  decipher.setAuthTag(sealed.tag);
  return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString("utf8");
}
