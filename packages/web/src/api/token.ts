import type { SessionOut } from "@coffer/protocol";

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

export function loadSession(storage: Storage = localStorage): Session | null {
  try {
    const value = JSON.parse(storage.getItem(SESSION_KEY) ?? "null") as Partial<Session> | null;
    return value && typeof value.session_id === "string" && typeof value.secret === "string"
      ? { session_id: value.session_id, secret: value.secret }
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
