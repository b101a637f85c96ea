import { z } from "zod";

/**
 * The daemon proves itself before any credential travels (docs/decisions.md, "Daemon proof").
 * A client sends a fresh nonce; the daemon answers
 * HMAC-SHA256(key, proofMessage(nonce, <the port the daemon itself listens on>)), key = the
 * long-lived token (CLI) or the secret of `session_id` (page). Binding the daemon's own port
 * defeats an impostor that relays the challenge to the real daemon on another port.
 */
export const PROOF_LABEL = "coffer-proof";

/** The exact bytes both sides MAC; daemon, CLI and page all build it here. */
export function proofMessage(nonce: string, port: number): string {
  return `${PROOF_LABEL}\n${nonce}\n${port}`;
}

const b64url = /^[A-Za-z0-9_-]+$/;

/** ≥ 16 random bytes, base64url (22..128 characters). */
export const ProofNonce = z
  .string()
  .min(22, "the nonce must be at least 16 random bytes, base64url (22 characters)")
  .max(128)
  .regex(b64url, "the nonce must be base64url");

export const SessionId = z.string().min(1).max(64).regex(b64url, "not a session id");

export const ProofRequest = z.object({
  nonce: ProofNonce,
  /** Absent: the MAC is keyed with the long-lived token; present: with this session's secret. */
  session_id: SessionId.optional(),
});
export type ProofRequest = z.infer<typeof ProofRequest>;

export const ProofOut = z.object({ mac: z.string().describe("HMAC-SHA256, base64url") });
export type ProofOut = z.infer<typeof ProofOut>;

export const SessionCreate = z.object({
  /** A one-time code from POST /auth/login-code; without it the long-lived token must be sent. */
  login_code: z.string().min(1).max(128).regex(b64url, "not a login code").optional(),
});
export type SessionCreate = z.infer<typeof SessionCreate>;

export const SessionOut = z.object({
  session_id: SessionId,
  /** Send as `Authorization: Bearer <session_id>.<secret>`; dies with the daemon process. */
  secret: z.string(),
});
export type SessionOut = z.infer<typeof SessionOut>;

export const LoginCodeRequest = z.object({
  handoff: z
    .boolean()
    .optional()
    .describe("Also write a private 0600 HTML file in the data dir that forwards a browser to the code, removed once used or expired (coffer open)."),
});
export type LoginCodeRequest = z.infer<typeof LoginCodeRequest>;

export const LoginCodeOut = z.object({
  code: z.string(),
  expires_in_ms: z.number().int(),
  /** With `handoff: true`: the file to hand a browser; only a path ever goes on its command line. */
  handoff_file: z.string().optional(),
});
export type LoginCodeOut = z.infer<typeof LoginCodeOut>;

/** How a session is presented as a bearer credential. */
export function sessionBearer(session: Pick<SessionOut, "session_id" | "secret">): string {
  return `${session.session_id}.${session.secret}`;
}
