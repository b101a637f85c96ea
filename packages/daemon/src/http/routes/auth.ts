import { ProofRequest, SessionCreate, type LoginCodeOut, type ProofOut, type SessionOut } from "@coffer/protocol";
import { Hono } from "hono";
import type { Env, HttpDeps } from "../deps.js";
import { ApiError } from "../errors.js";
import { bearerOf } from "../middleware/security.js";
import { jsonBody } from "../validate.js";

/** The daemon proves itself, and trades the token or a login code for a session (docs/decisions.md, "Daemon proof"). */
export function authRoutes(deps: HttpDeps): Hono<Env> {
  return new Hono<Env>()
    .post("/auth/proof", async (c) => {
      const body = await jsonBody(c, ProofRequest);
      // The port this connection arrived on: the daemon's own, whatever Host an impostor relays.
      const port = deps.proofPort ?? c.env.incoming.socket.localPort ?? 0;
      const mac = deps.auth.prove(body.nonce, port, body.session_id);
      if (mac === null) throw new ApiError("SESSION_ENDED", "this session ended with the daemon that issued it; run `coffer open`");
      return c.json({ mac } satisfies ProofOut);
    })
    .post("/auth/session", async (c) => {
      const bearer = bearerOf(c);
      const viaToken = bearer !== undefined && deps.auth.isToken(bearer);
      if (!viaToken && bearer) throw new ApiError("UNAUTHORIZED", "a session is made with the long-lived token or a login code");
      if (!viaToken) {
        const { login_code } = await jsonBody(c, SessionCreate);
        if (!login_code) throw new ApiError("UNAUTHORIZED", "send the daemon token or a login code (coffer open)");
        if (!deps.auth.redeemLoginCode(login_code)) {
          throw new ApiError("LOGIN_CODE_INVALID", "the login code is unknown, used or expired; run `coffer open` again");
        }
      }
      return c.json(deps.auth.openSession() satisfies SessionOut, 201);
    })
    .post("/auth/login-code", (c) => c.json(deps.auth.issueLoginCode() satisfies LoginCodeOut, 201));
}
