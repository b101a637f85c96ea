import { createHash, randomBytes } from "node:crypto";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";

export interface MasterKey {
  readonly key: Buffer;
  /** A short fingerprint stored beside each sealed row (never the key). */
  readonly id: string;
}

const KEY_BYTES = 32;

/**
 * The master key lives in one file (mode 0600) in the data dir, created the first time a
 * secret is sealed or opened. Nothing else on disk can decrypt a credential.
 */
export class MasterKeyFile {
  private cached: MasterKey | null = null;

  constructor(readonly path: string) {}

  get(): MasterKey {
    return (this.cached ??= this.loadOrCreate());
  }

  private loadOrCreate(): MasterKey {
    let key = this.read();
    if (!key) {
      try {
        writeFileSync(this.path, randomBytes(KEY_BYTES).toString("base64") + "\n", { mode: 0o600, flag: "wx" });
      } catch (err) {
        // Another process created it between our read and write: use theirs.
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
      key = this.read();
      if (!key) throw new Error(`the credential key file ${this.path} could not be created`);
    }
    chmodSync(this.path, 0o600);
    return { key, id: createHash("sha256").update(key).digest("hex").slice(0, 16) };
  }

  private read(): Buffer | null {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw err;
    }
    const key = Buffer.from(text.trim(), "base64");
    if (key.length !== KEY_BYTES) throw new Error(`the credential key file ${this.path} is not a ${KEY_BYTES}-byte base64 key`);
    return key;
  }
}
