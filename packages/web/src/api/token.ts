import { SessionId, type SessionOut } from "@coffer/protocol";

const SESSION_KEY = "coffer.session";
/** Where pages before the daemon proof kept the long-lived token; erased on sight. */
const LEGACY_TOKEN_KEY = "coffer.token";

export type Session = Pick<SessionOut, "session_id" | "secret">;

/** What the address bar brought: a one-time login code (coffer open), the token (?token=), or nothing. */
export type Launch = { readonly code: string } | { readonly token: string } | null;

type Win = Pick<Window, "location" | "history" | "localStorage">;

/**
 * Take any credential out of the address bar (history, screenshots, screen shares) and
 * never store it: the page keeps only a session, which dies with the daemon that issued it
 * (docs/decisions.md, "Daemon proof"). `coffer open` puts a login code in the fragment,
 * which browsers never send to a server; `?token=` still works for older links.
 */
export function captureLaunch(win: Win = window): Launch {
  win.localStorage.removeItem(LEGACY_TOKEN_KEY);
  const url = new URL(win.location.href);
  const fragment = new URLSearchParams(url.hash.slice(1));
  const code = fragment.get("login");
  const token = url.searchParams.get("token");
  if (!code && !token) return null;
  url.searchParams.delete("token");
  fragment.delete("login");
  const hash = fragment.toString();
  win.history.replaceState(win.history.state, "", `${url.pathname}${url.search}${hash ? `#${hash}` : ""}`);
  return code ? { code } : { token: token! };
}

/** A session id and secret are base64url (the daemon's random bytes); a planted one of another shape is none. */
const B64URL = /^[A-Za-z0-9_-]{1,128}$/;
const MAX_SESSION_CHARS = 512;

export function loadSession(storage: Storage = localStorage): Session | null {
  try {
    const raw = storage.getItem(SESSION_KEY);
    if (raw === null || raw.length > MAX_SESSION_CHARS) return null;
    const value = JSON.parse(raw) as Partial<Session> | null;
    return value && SessionId.safeParse(value.session_id).success && typeof value.secret === "string" && B64URL.test(value.secret)
      ? { session_id: value.session_id!, secret: value.secret }
      : null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session, storage: Storage = localStorage): void {
  storage.setItem(SESSION_KEY, JSON.stringify({ session_id: session.session_id, secret: session.secret }));
}

/** A dead session is worth nothing, but there is no reason to keep it either. */
export function dropSession(storage: Storage = localStorage): void {
  storage.removeItem(SESSION_KEY);
}
