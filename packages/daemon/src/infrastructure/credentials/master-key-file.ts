import { createHash, randomBytes } from "node:crypto";
import { CredentialsKeyCorrupt, StorageFull } from "../../domain/settings-errors.js";
import { nodeIo, readPrivateFile, UnsafePrivateFile, writePrivateFileAtomic, type PrivateFileIo } from "../system/private-files.js";

export interface MasterKey {
  readonly key: Buffer;
  /** A short fingerprint stored beside each sealed row (never the key). */
  readonly id: string;
}

const KEY_BYTES = 32;
const DISK_FULL = new Set(["ENOSPC", "EDQUOT"]);

/**
 * The master key lives in one file (mode 0600) in the data dir, created the first time a
 * secret is sealed or opened. Nothing else on disk can decrypt a credential. It is read without
 * following links and created atomically (temp file, fsync, link), so a full disk never leaves
 * an empty key that would brick every credential call (docs/decisions.md, Storage).
 */
export class MasterKeyFile {
  private cached: MasterKey | null = null;

  constructor(
    readonly path: string,
    private readonly io: PrivateFileIo = nodeIo,
  ) {}

  get(): MasterKey {
    return (this.cached ??= this.loadOrCreate());
  }

  private loadOrCreate(): MasterKey {
    let key = this.read();
    if (!key) {
      try {
        // exclusive: another process that created it between our read and write wins; use theirs.
        writePrivateFileAtomic(this.path, randomBytes(KEY_BYTES).toString("base64") + "\n", { exclusive: true, io: this.io });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? "";
        if (DISK_FULL.has(code)) throw new StorageFull("the credential key");
        if (code !== "EEXIST") throw err;
      }
      key = this.read();
      if (!key) throw new Error(`the credential key file ${this.path} could not be created`);
    }
    return { key, id: createHash("sha256").update(key).digest("hex").slice(0, 16) };
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
    const key = Buffer.from(text, "base64");
    if (key.length !== KEY_BYTES || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) {
      throw new CredentialsKeyCorrupt(this.path, `it is not a ${KEY_BYTES}-byte base64 key`);
    }
    return key;
  }
}
