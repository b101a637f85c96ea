import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { proofMessage } from "@coffer/protocol";
import type { Clock } from "../ports.js";

/** HMAC-SHA256(key, proofMessage(nonce, port)), base64url: what the daemon answers a proof with. */
export function proofMac(key: string, nonce: string, port: number): string {
  return createHmac("sha256", key).update(proofMessage(nonce, port)).digest("base64url");
}

/** Constant-time string equality (length leaks, content does not). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export type Caller = "token" | "session";

export interface AuthLimits {
  /** A login code lives this long (coffer open uses it at once). */
  readonly loginCodeTtlMs: number;
  /** Live sessions kept; the oldest is dropped past it (every page load may make one). */
  readonly maxSessions: number;
  /** Unused login codes kept; the oldest is dropped past it. */
  readonly maxLoginCodes: number;
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = { loginCodeTtlMs: 60_000, maxSessions: 256, maxLoginCodes: 32 };

const random = (bytes: number) => randomBytes(bytes).toString("base64url");

/**
 * The daemon's credentials: the long-lived token (from the data dir) and the sessions and
 * login codes it issued. Sessions and codes live in this object only, so they die with the
 * process that issued them: what a page keeps in storage is worthless to whoever holds the
 * port next (docs/decisions.md, "Daemon proof").
 */
export class DaemonAuth {
  private readonly sessions = new Map<string, string>();
  private readonly codes = new Map<string, number>();

  constructor(
    private readonly token: string,
    private readonly clock: Clock,
    private readonly limits: AuthLimits = DEFAULT_AUTH_LIMITS,
  ) {}

  /** Who a bearer value is: the token, a live session (`<id>.<secret>`), or nobody. */
  identify(bearer: string): Caller | "ended" | null {
    if (sameSecret(bearer, this.token)) return "token";
    const dot = bearer.indexOf(".");
    // A session bearer has exactly one dot; anything else (a gateway credential has two) is nobody.
    if (dot <= 0 || bearer.includes(".", dot + 1)) return null;
    const secret = this.sessions.get(bearer.slice(0, dot));
    if (secret === undefined) return "ended";
    return sameSecret(bearer.slice(dot + 1), secret) ? "session" : null;
  }

  isToken(bearer: string): boolean {
    return sameSecret(bearer, this.token);
  }

  /** The MAC for a proof; null when `sessionId` names no live session. */
  prove(nonce: string, port: number, sessionId?: string): string | null {
    const key = sessionId === undefined ? this.token : this.sessions.get(sessionId);
    return key === undefined ? null : proofMac(key, nonce, port);
  }

  openSession(): { session_id: string; secret: string } {
    const session_id = random(16);
    const secret = random(32);
    this.sessions.set(session_id, secret);
    dropOldest(this.sessions, this.limits.maxSessions);
    return { session_id, secret };
  }

  issueLoginCode(): { code: string; expires_in_ms: number } {
    const code = random(32);
    this.codes.set(code, this.clock.now() + this.limits.loginCodeTtlMs);
    dropOldest(this.codes, this.limits.maxLoginCodes);
    return { code, expires_in_ms: this.limits.loginCodeTtlMs };
  }

  /** True once per code, within its lifetime; any use (even a late one) burns it. */
  redeemLoginCode(code: string): boolean {
    let found: string | undefined;
    // Compare against every code in constant time per code: the map lookup itself would be a timing oracle.
    for (const known of this.codes.keys()) if (sameSecret(known, code)) found = known;
    if (found === undefined) return false;
    const expires = this.codes.get(found)!;
    this.codes.delete(found);
    return this.clock.now() <= expires;
  }

  /** Forget every session and code (the daemon is closing). */
  clear(): void {
    this.sessions.clear();
    this.codes.clear();
  }
}

function dropOldest<K, V>(map: Map<K, V>, max: number): void {
  while (map.size > max) map.delete(map.keys().next().value as K);
}
