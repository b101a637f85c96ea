import { randomBytes } from "node:crypto";
import { PAIRING_MAX_GUESSERS, PAIRING_MAX_WRONG, PAIRING_TTL_MS, pairingCodeFrom } from "../../domain/pairing-code.js";

/** Where a channel's last issued code stands; null once it was used (or never issued). */
export interface PairingState {
  readonly state: "live" | "expired" | "voided";
  readonly expiresAt: number;
  /** When someone last sent this very code after it stopped working (the owner, most likely, told nothing). */
  readonly refusedAt: number | null;
}

interface IssuedCode {
  readonly code: string;
  readonly expiresAt: number;
  voided: boolean;
  refusedAt: number | null;
  /** Wrong guesses per sender; emptied when the code dies. */
  readonly wrong: Map<string, number>;
}

/**
 * The channels' pairing codes, in memory only: a code dies with the daemon, which is what a
 * one-hour single-use secret should do (docs/decisions.md, "Channels"). One code per channel;
 * issuing another replaces it. Wrong guesses are counted per sender, so a stranger cannot void
 * the owner's code (docs/decisions.md, "Hardening II: the phone channel"). A dead code
 * (expired or voided) is kept until replaced so the page can say so.
 */
export class PairingCodes {
  private readonly codes = new Map<string, IssuedCode>();

  issue(channelId: string, now: number): { code: string; expiresAt: number } {
    const code = pairingCodeFrom(randomBytes(64));
    const issued: IssuedCode = { code, expiresAt: now + PAIRING_TTL_MS, voided: false, refusedAt: null, wrong: new Map() };
    this.codes.set(channelId, issued);
    return { code, expiresAt: issued.expiresAt };
  }

  /** Whether a live code waits for this channel (so a code-shaped text is a guess). */
  active(channelId: string, now: number): boolean {
    return this.state(channelId, now)?.state === "live";
  }

  /** Whether a code was issued and not used: a code-shaped text then is an attempt (live or late). */
  pending(channelId: string): boolean {
    return this.codes.has(channelId);
  }

  state(channelId: string, now: number): PairingState | null {
    const c = this.codes.get(channelId);
    if (!c) return null;
    const state = c.voided ? "voided" : c.expiresAt <= now ? "expired" : "live";
    // A dead code needs no guess counts: they are freed where its death is first seen.
    if (state !== "live") c.wrong.clear();
    return { state, expiresAt: c.expiresAt, refusedAt: c.refusedAt };
  }

  /** Whether `offered` is the live code, without spending it or counting a guess. */
  matches(channelId: string, offered: string, now: number): boolean {
    return this.active(channelId, now) && this.codes.get(channelId)!.code === offered;
  }

  /**
   * True exactly once, for the right code in time from a sender still heard; the code is then
   * spent. A wrong guess counts against its sender only; a sender past PAIRING_MAX_WRONG is not
   * heard at all. The right code after it died is refused and noted (`refusedAt`).
   */
  claim(channelId: string, offered: string, sender: string, now: number): boolean {
    const c = this.codes.get(channelId);
    if (!c) return false;
    if (!this.active(channelId, now)) {
      if (offered === c.code) c.refusedAt = now;
      return false;
    }
    const wrong = c.wrong.get(sender) ?? 0;
    if (wrong >= PAIRING_MAX_WRONG) return false;
    if (offered === c.code) {
      this.codes.delete(channelId);
      return true;
    }
    c.wrong.set(sender, wrong + 1);
    if (c.wrong.size >= PAIRING_MAX_GUESSERS) {
      c.voided = true;
      c.wrong.clear();
    }
    return false;
  }

  /** How many senders have guessed wrong at the live code (bounded by PAIRING_MAX_GUESSERS). */
  guessers(channelId: string): number {
    return this.codes.get(channelId)?.wrong.size ?? 0;
  }

  forget(channelId: string): void {
    this.codes.delete(channelId);
  }
}
