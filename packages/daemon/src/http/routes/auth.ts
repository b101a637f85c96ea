import { ROUTES } from "@coffer/protocol";
import { clientSummary } from "../../application/auth/client-summary.js";
import type { RouteBinder } from "../bind-route.js";
import type { HttpDeps } from "../deps.js";
import { ApiError } from "../errors.js";
import { bearerOf, tokenPrincipal } from "../middleware/security.js";
import { jsonBody } from "../validate.js";

/**
 * The daemon proves itself, trades the token or a login code for a session (audited with how
 * and by which client), and ends a session on sign-out (docs/decisions.md, "Daemon proof";
 * "Hardening II").
 */
export function authRoutes(bind: RouteBinder, deps: HttpDeps): void {
  bind
    .route(ROUTES.proveDaemon, ({ body, c }) => {
      // The port this connection arrived on: the daemon's own, whatever Host an impostor relays.
      const port = deps.proofPort ?? c.env.incoming.socket.localPort ?? 0;
      const mac = deps.auth.prove(body.nonce, port, body.session_id);
      if (mac === null) throw new ApiError("SESSION_ENDED", `this session ended (signed out, idle too long, or the daemon restarted); run \`${deps.openCommand}\``);
      return { mac };
    })
    // Raw: with the token in the header the body is not read at all, so it must not be validated first.
    .raw(ROUTES.openSession, async (c) => {
      const bearer = bearerOf(c);
      const viaToken = bearer !== undefined && deps.auth.isToken(bearer);
      if (!viaToken && bearer) throw new ApiError("UNAUTHORIZED", "a session is made with the long-lived token or a login code");
      if (!viaToken) {
        const { login_code } = await jsonBody(c, ROUTES.openSession.body);
        if (!login_code) throw new ApiError("UNAUTHORIZED", `send the daemon token or a login code (${deps.openCommand})`);
        if (!deps.auth.redeemLoginCode(login_code)) {
          throw new ApiError("LOGIN_CODE_INVALID", `the login code is unknown, used or expired; run \`${deps.openCommand}\` again`);
        }
      }
      const origin = { via: viaToken ? "token" : "login_code", client: clientSummary(c.req.header("user-agent")) } as const;
      const open = () => deps.auth.openSession(origin);
      return c.json(viaToken ? deps.principals.run(tokenPrincipal(c), open) : open(), 201);
    })
    .route(ROUTES.signOut, ({ c }) => {
      const principal = c.get("principal");
      if (principal?.kind === "session") deps.auth.signOut(principal.session_id);
    })
    .route(ROUTES.issueLoginCode, ({ body }) => deps.auth.issueLoginCode({ handoff: body?.handoff }));
}
