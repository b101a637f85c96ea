import { lstatSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../../application/ports.js";
import { CredentialsKeyUnavailable } from "../../domain/settings-errors.js";
import { findOnPath } from "../system/path-lookup.js";
import { KeyringMasterKey, SECRET_TOOL } from "./keyring-master-key.js";
import { MasterKeyFile } from "./master-key-file.js";
import type { MasterKey, MasterKeySource } from "./master-key.js";

export const CREDENTIAL_KEY_FILE = "credentials.key";
/** Its presence says the key is in the OS keyring (it names the entry; it holds no secret). */
export const KEYRING_MARKER_FILE = "credentials.key.keyring";

export interface KeySourceOptions {
  readonly dataDir: string;
  readonly env: NodeJS.ProcessEnv;
  /** COFFER_KEYRING: `off` keeps a new key in the file even where a keyring exists. */
  readonly keyring: "auto" | "off";
  readonly logger: Logger;
}

/**
 * Where this data dir's credentials key is, decided once at start:
 *  1. the marker file is there → the OS keyring, always (even with COFFER_KEYRING=off: the
 *     stored credentials were sealed with that key; a new one would orphan them);
 *  2. `credentials.key` is there → that file, as before: an existing key is never moved
 *     behind the owner's back (a half-done move would orphan the credentials too);
 *  3. no key yet, COFFER_KEYRING not `off`, `secret-tool` on PATH and a session bus
 *     (DBUS_SESSION_BUS_ADDRESS) → the key is made in the keyring on first use, falling back to
 *     the 0600 file if the keyring refuses it (nothing is sealed yet, so nothing is lost);
 *  4. otherwise → the 0600 file.
 */
export function chooseMasterKeySource(o: KeySourceOptions): MasterKeySource {
  const file = new MasterKeyFile(join(o.dataDir, CREDENTIAL_KEY_FILE));
  const keyring = new KeyringMasterKey(join(o.dataDir, KEYRING_MARKER_FILE), o.dataDir, o.env);
  if (exists(keyring.markerPath)) return keyring;
  if (exists(file.path)) return file;
  if (o.keyring !== "off" && o.env.DBUS_SESSION_BUS_ADDRESS?.trim() && findOnPath(SECRET_TOOL, o.env.PATH)) {
    return new FirstKey(keyring, file, o.logger);
  }
  return file;
}

/** A data dir's first key: in the keyring if it takes it, else in the file. */
class FirstKey implements MasterKeySource {
  private chosen: MasterKeySource | null = null;

  constructor(
    private readonly keyring: KeyringMasterKey,
    private readonly file: MasterKeyFile,
    private readonly logger: Logger,
  ) {}

  get where(): string {
    return (this.chosen ?? this.keyring).where;
  }

  get(): MasterKey {
    if (this.chosen) return this.chosen.get();
    // Another start may have made it meanwhile (one daemon per data dir, but be exact).
    if (this.keyring.hasMarker()) return (this.chosen = this.keyring).get();
    if (exists(this.file.path)) return (this.chosen = this.file).get();
    try {
      const key = this.keyring.create();
      this.chosen = this.keyring;
      this.logger.info("the credentials key was made in the OS keyring", { marker: this.keyring.markerPath });
      return key;
    } catch (err) {
      if (!(err instanceof CredentialsKeyUnavailable)) throw err;
      this.chosen = this.file;
      this.logger.warn("the OS keyring did not take the credentials key; it is kept in a 0600 file in the data dir instead", {
        reason: err.details?.reason,
        file: this.file.path,
      });
      return this.file.get();
    }
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path); // a link counts: the source refuses it with a clear error instead of ignoring it
    return true;
  } catch {
    return false;
  }
}
