import { PAIRING_ALPHABET, PAIRING_CODE_LENGTH } from "@coffer/protocol";

/** How long a pairing code works. */
export const PAIRING_TTL_MS = 60 * 60 * 1000;
/** Wrong guesses one sender may make; after that the sender is no longer heard (the code lives on). */
export const PAIRING_MAX_WRONG = 10;
/**
 * Distinct senders that may guess wrong before the code is voided: bounds the memory kept per
 * code and the guesses it can take (10 × 1000 of 31^8 codes), and costs an attacker a thousand
 * Telegram accounts. A voided code is shown as such on the page and in `coffer channel show`.
 */
export const PAIRING_MAX_GUESSERS = 1000;

/** A code from `random` bytes: PAIRING_CODE_LENGTH characters of the unambiguous alphabet. */
export function pairingCodeFrom(random: Uint8Array): string {
  let code = "";
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 31).
  const limit = 256 - (256 % PAIRING_ALPHABET.length);
  for (const byte of random) {
    if (byte >= limit) continue;
    code += PAIRING_ALPHABET[byte % PAIRING_ALPHABET.length];
    if (code.length === PAIRING_CODE_LENGTH) return code;
  }
  throw new Error("not enough random bytes for a pairing code");
}

/**
 * What an unpaired sender's text offers as a code, or null when it does not look like one
 * (then it is not a guess and costs nothing). `/start CODE` is what a t.me deep link sends.
 */
export function offeredCode(text: string): string | null {
  const t = text.trim();
  const m = /^\/start(?:@\w+)?\s+(\S+)$/i.exec(t);
  const candidate = (m ? m[1]! : t).toUpperCase();
  return candidate.length === PAIRING_CODE_LENGTH && /^[A-Z0-9]+$/.test(candidate) ? candidate : null;
}
