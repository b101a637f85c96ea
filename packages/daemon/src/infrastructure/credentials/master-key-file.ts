import { CredentialsKeyCorrupt, StorageFull } from "../../domain/settings-errors.js";
import { nodeIo, readPrivateFile, UnsafePrivateFile, writePrivateFileAtomic, type PrivateFileIo } from "../system/private-files.js";
import { KEY_BYTES, masterKey, newKeyText, parseKeyText, type MasterKey, type MasterKeySource } from "./master-key.js";

const DISK_FULL = new Set(["ENOSPC", "EDQUOT"]);

/**
 * The master key in one file (mode 0600) in the data dir, created the first time a secret is
 * sealed or opened — where no OS keyring is available, or for a data dir that already had it
 * (master-key-source.ts). Nothing else on disk can decrypt a credential. It is read without
 * following links and created atomically (temp file, fsync, link), so a full disk never leaves
 * an empty key that would brick every credential call (docs/decisions.md, Storage).
 */
export class MasterKeyFile implements MasterKeySource {
  private cached: MasterKey | null = null;

  constructor(
    readonly path: string,
    private readonly io: PrivateFileIo = nodeIo,
  ) {}

  get where(): string {
    return this.path;
  }

  get(): MasterKey {
    return (this.cached ??= this.loadOrCreate());
  }

  private loadOrCreate(): MasterKey {
    let key = this.read();
    if (!key) {
      try {
        // exclusive: another process that created it between our read and write wins; use theirs.
        writePrivateFileAtomic(this.path, newKeyText() + "\n", { exclusive: true, io: this.io });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? "";
        if (DISK_FULL.has(code)) throw new StorageFull("the credential key");
        if (code !== "EEXIST") throw err;
      }
      key = this.read();
      if (!key) throw new Error(`the credential key file ${this.path} could not be created`);
    }
    return masterKey(key);
  }

  private read(): Buffer | null {
    let bytes: Buffer | null;
    try {
      bytes = readPrivateFile(this.path);
    } catch (err) {
      if (err instanceof UnsafePrivateFile) throw new CredentialsKeyCorrupt(this.path, err.problem);
      throw err;
    }
    if (bytes === null) return null;
    const text = bytes.toString("utf8").trim();
    if (text.length === 0) throw new CredentialsKeyCorrupt(this.path, "the file is empty");
    const key = parseKeyText(text);
    if (!key) throw new CredentialsKeyCorrupt(this.path, `it is not a ${KEY_BYTES}-byte base64 key`);
    return key;
  }
}
