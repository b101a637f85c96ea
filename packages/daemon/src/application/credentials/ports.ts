export interface CredentialMeta {
  readonly ref: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** Where secrets are kept: encrypted at rest; only refs and timestamps ever come back out. */
export interface CredentialStore {
  /** Insert or replace the secret stored as `ref`. */
  put(ref: string, secret: string, now: number): CredentialMeta;
  list(): CredentialMeta[];
  has(ref: string): boolean;
  /** False when there was nothing to remove. */
  remove(ref: string): boolean;
}

/**
 * Turns a ref into its secret, in memory only, at the moment of use (an outgoing request's
 * header, a child process's env). Callers never persist or log what it returns.
 * Throws CredentialNotFound or CredentialUnreadable.
 */
export interface CredentialResolver {
  resolve(ref: string): string;
}

/** A secret as stored: AES-256-GCM output plus the fingerprint of the key that sealed it. */
export interface SealedSecret {
  readonly nonce: Uint8Array;
  readonly ciphertext: Uint8Array;
  readonly tag: Uint8Array;
  readonly keyId: string;
}

/** Storage for sealed secrets (SQLite in the daemon); it never sees a plaintext. */
export interface SealedCredentialRows {
  upsert(ref: string, row: SealedSecret, now: number): CredentialMeta;
  get(ref: string): SealedSecret | null;
  list(): CredentialMeta[];
  has(ref: string): boolean;
  delete(ref: string): boolean;
}

/**
 * Whatever must know a secret's value the moment it is set or removed (the secret scrubber,
 * application/secrets). Credentials own this port and secrets fill it, so the tie between the
 * two folders points one way: secrets → credentials.
 */
export interface SecretLearner {
  learn(ref: string, value: string): void;
  forget(ref: string): void;
}

export type { AuditSink } from "../audit-log.js";
