import type {
  CredentialMeta,
  CredentialResolver,
  CredentialStore,
  SealedCredentialRows,
} from "../../application/credentials/ports.js";
import { CredentialNotFound, CredentialUnreadable } from "../../domain/settings-errors.js";
import { open, seal } from "./aes-gcm.js";
import type { MasterKeySource } from "./master-key.js";

/** The credential module: seals on the way in, opens only for the resolver, in memory. */
export class EncryptedCredentials implements CredentialStore, CredentialResolver {
  constructor(
    private readonly rows: SealedCredentialRows,
    private readonly masterKey: MasterKeySource,
  ) {}

  put(ref: string, secret: string, now: number): CredentialMeta {
    const { key, id } = this.masterKey.get();
    return this.rows.upsert(ref, { ...seal(key, secret, ref), keyId: id }, now);
  }

  list(): CredentialMeta[] {
    return this.rows.list();
  }

  has(ref: string): boolean {
    return this.rows.has(ref);
  }

  remove(ref: string): boolean {
    return this.rows.delete(ref);
  }

  resolve(ref: string): string {
    const row = this.rows.get(ref);
    if (!row) throw new CredentialNotFound(ref);
    const { key, id } = this.masterKey.get();
    if (row.keyId !== id) throw new CredentialUnreadable(ref, "it was sealed with another master key");
    try {
      return open(key, row, ref);
    } catch {
      // GCM refused it: the bytes were altered. Say so without echoing anything.
      throw new CredentialUnreadable(ref, "its ciphertext failed authentication");
    }
  }
}
