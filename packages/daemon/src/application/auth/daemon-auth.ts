import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { proofMessage, SessionId } from "@coffer/protocol";
import { setTimeout } from "node:timers";
import type { Clock } from "../ports.js";
import type { LoginHandoffFiles } from "./handoff-ports.js";

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

/** Who a bearer value is: the token, or which live session. */
export type Identity = { readonly kind: "token" } | { readonly kind: "session"; readonly sessionId: string };

export interface AuthLimits {
  /** A login code lives this long (coffer open uses it at once). */
  readonly loginCodeTtlMs: number;
  /** Live sessions kept; the oldest is dropped past it (every page load may make one). */
  readonly maxSessions: number;
  /** Unused login codes kept; the oldest is dropped past it. */
  readonly maxLoginCodes: number;
  /** A session unused this long ends (COFFER_SESSION_IDLE_MINUTES). */
  readonly sessionIdleMs: number;
}

export const DEFAULT_SESSION_IDLE_MS = 8 * 60 * 60_000;
export const DEFAULT_AUTH_LIMITS: AuthLimits = { loginCodeTtlMs: 60_000, maxSessions: 256, maxLoginCodes: 32, sessionIdleMs: DEFAULT_SESSION_IDLE_MS };

/** How a session was opened, for its audit row. */
export interface SessionOrigin {
  readonly via: "login_code" | "token";
  /** A short summary of the client (clientSummary). */
  readonly client: string;
}

export interface AuthDeps {
  /** Session opened, signed out, expired: the audit log (the principal is added by the sink). */
  readonly audit?: (action: "session_opened" | "session_signed_out" | "session_expired", details: Record<string, unknown>) => void;
  /** Where hand-off files for `coffer open` go; absent = no hand-off. */
  readonly handoff?: LoginHandoffFiles;
}

interface Session {
  readonly secret: string;
  lastSeen: number;
}

const random = (bytes: number) => randomBytes(bytes).toString("base64url");

/**
 * The daemon's credentials: the long-lived token (from the data dir) and the sessions and
 * login codes it issued. Sessions and codes live in this object only, so they die with the
 * process that issued them: what a page keeps in storage is worthless to whoever holds the
 * port next (docs/decisions.md, "Daemon proof"). A session also ends after
 * `sessionIdleMs` without use, or when the page signs out.
 */
export class DaemonAuth {
  private readonly sessions = new Map<string, Session>();
  private readonly codes = new Map<string, number>();
  private readonly limits: AuthLimits;

  constructor(
    private readonly token: string,
    private readonly clock: Clock,
    limits: Partial<AuthLimits> = {},
    private readonly deps: AuthDeps = {},
  ) {
    this.limits = { ...DEFAULT_AUTH_LIMITS, ...limits };
  }

  /** Who a bearer value is: the token, a live session (`<id>.<secret>`), one that ended, or nobody. */
  identify(bearer: string): Identity | "ended" | null {
    if (sameSecret(bearer, this.token)) return { kind: "token" };
    const dot = bearer.indexOf(".");
    // Only a session-shaped value (`<id>.<secret>`, one dot) can be a session that ended;
    // anything else (e.g. an agent's gateway credential, `cgw1.<id>.<mac>`) is just wrong.
    if (dot <= 0 || bearer.indexOf(".", dot + 1) !== -1 || !SessionId.safeParse(bearer.slice(0, dot)).success) return null;
    const sessionId = bearer.slice(0, dot);
    const session = this.live(sessionId);
    if (!session) return "ended";
    if (!sameSecret(bearer.slice(dot + 1), session.secret)) return null;
    session.lastSeen = this.clock.now();
    return { kind: "session", sessionId };
  }

  isToken(bearer: string): boolean {
    return sameSecret(bearer, this.token);
  }

  /** The MAC for a proof; null when `sessionId` names no live session. */
  prove(nonce: string, port: number, sessionId?: string): string | null {
    const key = sessionId === undefined ? this.token : this.live(sessionId)?.secret;
    return key === undefined ? null : proofMac(key, nonce, port);
  }

  openSession(origin: SessionOrigin = { via: "token", client: "unknown" }): { session_id: string; secret: string } {
    const session_id = random(16);
    const secret = random(32);
    this.sessions.set(session_id, { secret, lastSeen: this.clock.now() });
    dropOldest(this.sessions, this.limits.maxSessions);
    this.deps.audit?.("session_opened", { session_id, via: origin.via, client: origin.client });
    return { session_id, secret };
  }

  /** Ends a session at once (the page's "Sign out"); false when it was not live. */
  signOut(sessionId: string): boolean {
    if (!this.sessions.delete(sessionId)) return false;
    this.deps.audit?.("session_signed_out", { session_id: sessionId });
    return true;
  }

  issueLoginCode(options: { handoff?: boolean } = {}): { code: string; expires_in_ms: number; handoff_file?: string } {
    const code = random(32);
    this.codes.set(code, this.clock.now() + this.limits.loginCodeTtlMs);
    for (const dropped of dropOldest(this.codes, this.limits.maxLoginCodes)) this.deps.handoff?.remove(dropped);
    const ttl = { code, expires_in_ms: this.limits.loginCodeTtlMs };
    if (!options.handoff || !this.deps.handoff) return ttl;
    const handoff_file = this.deps.handoff.write(code);
    // The file is worthless once the code expires; it goes then (or when the code is used).
    setTimeout(() => this.deps.handoff?.remove(code), this.limits.loginCodeTtlMs).unref();
    return { ...ttl, handoff_file };
  }

  /** True once per code, within its lifetime; any use (even a late one) burns it. */
  redeemLoginCode(code: string): boolean {
    let found: string | undefined;
    // Compare against every code in constant time per code: the map lookup itself would be a timing oracle.
    for (const known of this.codes.keys()) if (sameSecret(known, code)) found = known;
    if (found === undefined) return false;
    const expires = this.codes.get(found)!;
    this.codes.delete(found);
    this.deps.handoff?.remove(found);
    return this.clock.now() <= expires;
  }

  /** Forget every session and code (the daemon is closing). */
  clear(): void {
    for (const code of this.codes.keys()) this.deps.handoff?.remove(code);
    this.sessions.clear();
    this.codes.clear();
  }

  /** The session if it is live; an idle one ends here, on first sight after its deadline. */
  private live(sessionId: string): Session | undefined {
    const session = this.sessions.get(sessionId);
    if (!session || this.clock.now() - session.lastSeen <= this.limits.sessionIdleMs) return session;
    this.sessions.delete(sessionId);
    this.deps.audit?.("session_expired", { session_id: sessionId });
    return undefined;
  }
}

/** Drops the oldest entries past `max`; returns their keys. */
function dropOldest<K, V>(map: Map<K, V>, max: number): K[] {
  const dropped: K[] = [];
  while (map.size > max) {
    const oldest = map.keys().next().value as K;
    map.delete(oldest);
    dropped.push(oldest);
  }
  return dropped;
}
