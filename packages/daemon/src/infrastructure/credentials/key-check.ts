import type { SealedSecret } from "../../application/credentials/ports.js";
import { open } from "./aes-gcm.js";
import { masterKey, parseKeyText, type MasterKey } from "./master-key.js";

/** A key as the key file stores it, or null when the text is not one. */
export function keyFromText(text: string): MasterKey | null {
  const key = parseKeyText(text);
  return key ? masterKey(key) : null;
}

/** The key as credentials.key stores it (base64 and a newline). */
export function keyText(key: MasterKey): string {
  return `${key.key.toString("base64")}\n`;
}

/**
 * Whether `key` opens a sealed credential: its fingerprint matches and AES-GCM authenticates
 * the ciphertext (restore and doctor prove the key, not just compare names).
 */
export function keyOpens(key: MasterKey, sealed: SealedSecret & { readonly ref: string }): boolean {
  if (sealed.keyId !== key.id) return false;
  try {
    open(key.key, sealed, sealed.ref);
    return true;
  } catch {
    return false;
  }
}
