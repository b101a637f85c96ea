import { ErrorEnvelope, ProofOut, proofMessage, CHAT_AREA_ROUTES, SessionOut, sessionBearer } from "@coffer/protocol";
import { dropSession, loadSession, saveSession, type Launch, type Session } from "./token.js";

/** ok: proven (or not yet asked); impostor: the port's process failed the proof; ended: the daemon that issued our session is gone. */
export type GuardState = "starting" | "ok" | "impostor" | "ended" | "no-credential" | "link-used" | "signed-out";

/** Thrown to callers while the daemon is unproven; they send nothing authenticated. */
export class GuardError extends Error {
  constructor(readonly reason: "network" | "refused") {
    super(reason === "network" ? "The daemon cannot be reached." : "The daemon did not prove itself; nothing was sent.");
  }
}

function b64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromB64url(text: string): Uint8Array {
  const s = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

/** HMAC-SHA256 with WebCrypto (127.0.0.1 is a secure context). */
async function hmac(key: string, message: string): Promise<Uint8Array> {
  const enc = new TextEncoder();
  const k = await crypto.subtle.importKey("raw", enc.encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, enc.encode(message)));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * The page's side of the daemon proof (docs/decisions.md, "Daemon proof"): before its first
 * authenticated request, and again after any network failure and before every live-link
 * (re)connect, the process on this port must MAC a fresh nonce with our session secret and
 * its own port. Until it does, nothing authenticated leaves the page. A failed proof is
 * final for this page load: the owner is told to run `coffer open`.
 */
export class DaemonGuard {
  private session: Session | null = null;
  private verified: Promise<void> | null = null;
  private current: GuardState = "starting";
  private readonly listeners = new Set<() => void>();
  private readonly established: Promise<void>;

  constructor(
    launch: Launch,
    private readonly base = "/api/v1",
    private readonly port = Number(location.port || 80),
  ) {
    this.established = this.establish(launch);
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly state = (): GuardState => this.current;

  private set(state: GuardState): void {
    if (this.current === state) return;
    this.current = state;
    for (const l of this.listeners) l();
  }

  /** A launch credential is traded for a session once and then forgotten (never stored). */
  private async establish(launch: Launch): Promise<void> {
    if (launch) {
      const res = await fetch(`${this.base}${CHAT_AREA_ROUTES.openSession.path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...("token" in launch ? { authorization: `Bearer ${launch.token}` } : {}) },
        body: JSON.stringify("code" in launch ? { login_code: launch.code } : {}),
      }).catch(() => null);
      if (res?.ok) {
        const session = SessionOut.parse(await res.json());
        saveSession(session);
        this.session = session;
        // Just issued by the process that served this page: proven by the exchange itself.
        this.verified = Promise.resolve();
        this.set("ok");
        return;
      }
      if (res) {
        const env = ErrorEnvelope.safeParse(await res.json().catch(() => null));
        if (env.success && env.data.error.code === "LOGIN_CODE_INVALID") return this.set("link-used");
      }
    }
    this.session = loadSession();
    this.set(this.session ? "ok" : "no-credential");
  }

  /** The Authorization header for the next request, once the daemon has proven itself. */
  async authorization(fresh = false): Promise<string> {
    await this.established;
    if (this.current !== "ok" || !this.session) throw new GuardError("refused");
    if (fresh) this.verified = null;
    const session = this.session;
    this.verified ??= this.prove(session).catch((err: unknown) => {
      this.verified = null;
      throw err;
    });
    await this.verified;
    return `Bearer ${sessionBearer(session)}`;
  }

  /**
   * Ends this page's session on the daemon at once (POST /auth/sign-out) and forgets it here,
   * whatever the daemon answered: the page is signed out either way.
   */
  async signOut(): Promise<void> {
    const authorization = await this.authorization().catch(() => null);
    if (authorization) await fetch(`${this.base}${CHAT_AREA_ROUTES.signOut.path}`, { method: "POST", headers: { authorization } }).catch(() => null);
    dropSession();
    this.session = null;
    this.verified = null;
    this.set("signed-out");
  }

  /** A request failed on the network: whoever answers next must prove itself again. */
  connectionLost(): void {
    this.verified = null;
  }

  private async prove(session: Session): Promise<void> {
    const nonce = b64url(crypto.getRandomValues(new Uint8Array(32)));
    let res: Response;
    try {
      res = await fetch(`${this.base}${CHAT_AREA_ROUTES.proveDaemon.path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ nonce, session_id: session.session_id }),
        cache: "no-store",
      });
    } catch {
      throw new GuardError("network");
    }
    const json: unknown = await res.json().catch(() => null);
    if (res.status === 401 && ErrorEnvelope.safeParse(json).data?.error.code === "SESSION_ENDED") {
      dropSession();
      this.set("ended");
      throw new GuardError("refused");
    }
    const answer = ProofOut.safeParse(json);
    let ok = false;
    if (res.ok && answer.success) {
      try {
        ok = sameBytes(fromB64url(answer.data.mac), await hmac(session.secret, proofMessage(nonce, this.port)));
      } catch {
        ok = false;
      }
    }
    if (!ok) {
      this.set("impostor");
      throw new GuardError("refused");
    }
  }
}
