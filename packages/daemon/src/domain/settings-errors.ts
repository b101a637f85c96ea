import { DomainError } from "./errors.js";

export class CredentialNotFound extends DomainError {
  readonly code = "CREDENTIAL_NOT_FOUND";
  constructor(ref: string) {
    super(`no credential is stored as "${ref}"`, { ref });
  }
}

/** The row exists but cannot be opened: the master key file was replaced, or the row was tampered with. */
export class CredentialUnreadable extends DomainError {
  readonly code = "CREDENTIAL_UNREADABLE";
  constructor(ref: string, why: string) {
    super(`the credential "${ref}" cannot be decrypted (${why}); set it again`, { ref });
  }
}

export class ConnectionNotFound extends DomainError {
  readonly code = "CONNECTION_NOT_FOUND";
  constructor(id: string) {
    super(`LLM connection not found: ${id}`, { id });
  }
}

export class ConnectionNameTaken extends DomainError {
  readonly code = "CONNECTION_NAME_TAKEN";
  constructor(name: string) {
    super(`an LLM connection named "${name}" already exists`, { name });
  }
}

/** An LLM provider kind the daemon does not speak (the API field is `wire`). */
export class UnknownProviderKind extends DomainError {
  readonly code = "UNKNOWN_WIRE";
  constructor(wire: string, known: readonly string[]) {
    super(`unknown wire "${wire}"; this daemon speaks: ${known.join(", ")}`, { wire, known });
  }
}

export class ConnectionInvalid extends DomainError {
  readonly code = "CONNECTION_INVALID";
  constructor(message: string, reason: string) {
    super(message, { reason });
  }
}

/**
 * `credentials.key` exists but holds no usable key (empty, not a 32-byte base64 key, a link or
 * someone else's file). Every stored credential depends on it, so the message says how to recover.
 */
export class CredentialsKeyCorrupt extends DomainError {
  readonly code = "CREDENTIALS_KEY_CORRUPT";
  constructor(path: string, reason: string) {
    super(
      `the credential key file ${path} is unusable (${reason}). If you have a backup of it, restore it; ` +
        `otherwise delete it — a new key is made on the next credential write, and every stored credential must be set again`,
      { path, reason },
    );
  }
}

/**
 * The data dir keeps its credentials key in the OS keyring (the marker file says so) and the
 * keyring did not give it: locked, not running in this session, or the entry was removed. No
 * new key is made in its place — that would orphan every stored credential — so the message
 * says how to get the keyring back.
 */
export class CredentialsKeyUnavailable extends DomainError {
  readonly code = "CREDENTIALS_KEY_UNAVAILABLE";
  constructor(reason: string) {
    super(
      `the credentials key is kept in the OS keyring, which could not give it (${reason}). Start the daemon in your ` +
        `desktop session with the keyring unlocked and retry; no new key was made, so your stored credentials are kept`,
      { reason },
    );
  }
}

/** The disk is full: nothing was written (no half-written file is left behind). */
export class StorageFull extends DomainError {
  readonly code = "STORAGE_FULL";
  constructor(what: string) {
    super(`the disk holding the data dir is full; ${what} was not written. Free some space and retry`, { what });
  }
}
