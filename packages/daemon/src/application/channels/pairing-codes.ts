import { randomBytes } from "node:crypto";
import { PAIRING_MAX_WRONG, PAIRING_TTL_MS, pairingCodeFrom } from "../../domain/pairing-code.js";

interface ActiveCode {
  readonly code: string;
  readonly expiresAt: number;
  wrong: number;
}

/**
 * The channels' pairing codes, in memory only: a code dies with the daemon, which is what a
 * one-hour single-use secret should do (docs/decisions.md, "Channels"). One live code per
 * channel; issuing another replaces it.
 */
export class PairingCodes {
  private readonly codes = new Map<string, ActiveCode>();

  issue(channelId: string, now: number): { code: string; expiresAt: number } {
    const code = pairingCodeFrom(randomBytes(64));
    const active = { code, expiresAt: now + PAIRING_TTL_MS, wrong: 0 };
    this.codes.set(channelId, active);
    return { code, expiresAt: active.expiresAt };
  }

  /** Whether a code is live for this channel (so a code-shaped text is a guess). */
  active(channelId: string, now: number): boolean {
    const c = this.codes.get(channelId);
    if (c && c.expiresAt <= now) this.codes.delete(channelId);
    return this.codes.has(channelId);
  }

  /** Whether `offered` is the live code, without spending it or counting a guess. */
  matches(channelId: string, offered: string, now: number): boolean {
    return this.active(channelId, now) && this.codes.get(channelId)!.code === offered;
  }

  /**
   * True exactly once, for the right code in time; the code is then spent. Each wrong guess
   * counts; the PAIRING_MAX_WRONG-th voids the code, so an 11th guess finds nothing.
   */
  claim(channelId: string, offered: string, now: number): boolean {
    if (!this.active(channelId, now)) return false;
    const c = this.codes.get(channelId)!;
    if (offered === c.code) {
      this.codes.delete(channelId);
      return true;
    }
    c.wrong += 1;
    if (c.wrong >= PAIRING_MAX_WRONG) this.codes.delete(channelId);
    return false;
  }

  forget(channelId: string): void {
    this.codes.delete(channelId);
  }
}
