import type { Context, MiddlewareHandler } from "hono";
import type { DaemonAuth } from "../../application/auth/daemon-auth.js";
import type { Principal, PrincipalScope } from "../../application/auth/principal.js";
import type { Env } from "../deps.js";
import { ApiError } from "../errors.js";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

function hostname(hostHeader: string): string {
  const bracket = hostHeader.startsWith("[") ? hostHeader.indexOf("]") : -1;
  if (bracket > 0) return hostHeader.slice(0, bracket + 1).toLowerCase();
  return hostHeader.split(":")[0]!.toLowerCase();
}

/** DNS rebinding defence: only loopback names may address the daemon. */
export function hostGuard(): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header("host") ?? "";
    if (!LOOPBACK_HOSTS.has(hostname(host))) {
      throw new ApiError("FORBIDDEN_HOST", `requests must address the daemon by a loopback name, not "${host}"`);
    }
    await next();
  };
}

/** A browser page from another site may not drive the daemon, even with a leaked token. */
export function originGuard(): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header("origin");
    if (origin && origin !== "null") {
      let ok = false;
      try {
        const url = new URL(origin);
        ok = url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname.startsWith("[") ? url.hostname : url.hostname.toLowerCase())
          && url.host === (c.req.header("host") ?? "");
      } catch {
        ok = false;
      }
      if (!ok) throw new ApiError("FORBIDDEN_ORIGIN", `cross-site requests are refused (origin ${origin})`);
    } else if (origin === "null" || (c.req.header("sec-fetch-site") === "cross-site" && !opensThePage(c))) {
      throw new ApiError("FORBIDDEN_ORIGIN", "cross-site requests are refused");
    }
    await next();
  };
}

/**
 * A top-level navigation to the page itself (not the API, not the gateway): the sign-in
 * hand-off file (file://) and bookmarks arrive cross-site. Serving the static page changes
 * nothing and carries no credential; every API call it then makes is same-origin
 * (docs/decisions.md, "Hardening II").
 */
function opensThePage(c: Context): boolean {
  const path = c.req.path;
  return (
    c.req.method === "GET" &&
    c.req.header("sec-fetch-mode") === "navigate" &&
    c.req.header("sec-fetch-dest") === "document" &&
    !path.startsWith("/api/") &&
    path !== "/mcp"
  );
}

/** The bearer value a request carries (Authorization: Bearer … or X-Coffer-Token), if any. */
export function bearerOf(c: Context): string | undefined {
  const auth = c.req.header("authorization");
  return auth?.startsWith("Bearer ") ? auth.slice(7).trim() : c.req.header("x-coffer-token");
}

/**
 * /api/v1 needs the long-lived token or a live session (`<session_id>.<secret>`), except
 * the routes the protocol marks otherwise (the proof; the session exchange checks its own).
 */
export function requireAuth(auth: DaemonAuth, principals: PrincipalScope, open: ReadonlySet<string>, openCommand = "coffer open"): MiddlewareHandler<Env> {
  return async (c, next) => {
    if (c.req.method === "POST" && open.has(c.req.path)) return next();
    const given = bearerOf(c);
    const who = given ? auth.identify(given) : null;
    if (who === "ended") {
      throw new ApiError("SESSION_ENDED", `this session ended with the daemon that issued it; run \`${openCommand}\``);
    }
    if (!who) {
      throw new ApiError(
        "UNAUTHORIZED",
        given ? "the token is wrong" : "send the daemon token (Authorization: Bearer <token> or X-Coffer-Token)",
      );
    }
    const principal: Principal = who.kind === "session" ? { kind: "session", session_id: who.sessionId } : tokenPrincipal(c);
    c.set("principal", principal);
    // Everything this request causes (audit rows included) runs as the principal verified here.
    await principals.run(principal, next);
  };
}

/** The daemon token's principal, with the transport it came over (the private Unix socket or TCP). */
export function tokenPrincipal(c: Context<Env>): Principal {
  // A Unix-socket connection has no remote port.
  return { kind: "token", transport: typeof c.env.incoming.socket.remotePort === "number" ? "tcp" : "socket" };
}
