import { z } from "zod";
import { Timestamp } from "../wire/common.js";

/**
 * A credential's name. Rows that need a secret (LLM connections) store this ref, never the
 * secret; the daemon resolves it in memory when it calls out.
 */
export const CredentialRef = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, "letters, digits, '.', '_' or '-' (max 128), starting with a letter or digit");
export type CredentialRef = z.infer<typeof CredentialRef>;

/** Write-only: the secret goes in, and no route ever sends it back. */
export const CredentialPut = z.object({
  secret: z.string().min(1).max(16_384).describe("The secret value; stored encrypted, never returned."),
});
export type CredentialPut = z.infer<typeof CredentialPut>;

export const CredentialOut = z.object({
  ref: CredentialRef,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type CredentialOut = z.infer<typeof CredentialOut>;

export const CredentialListOut = z.object({ credentials: z.array(CredentialOut) });
export type CredentialListOut = z.infer<typeof CredentialListOut>;
