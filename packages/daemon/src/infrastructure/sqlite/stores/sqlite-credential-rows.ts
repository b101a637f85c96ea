import type { CredentialMeta, SealedCredentialRows, SealedSecret } from "../../../application/credentials/ports.js";
import type { Db } from "../database.js";

interface MetaRow {
  ref: string;
  created_at: number;
  updated_at: number;
}

const toMeta = (r: MetaRow): CredentialMeta => ({ ref: r.ref, createdAt: r.created_at, updatedAt: r.updated_at });

/** Sealed credential rows: nonce, ciphertext, tag and key fingerprint. No plaintext column exists. */
export class SqliteCredentialRows implements SealedCredentialRows {
  private readonly s;

  constructor(db: Db) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      upsert: p(`INSERT INTO credentials (ref, nonce, ciphertext, tag, key_id, created_at, updated_at)
                 VALUES (@ref, @nonce, @ciphertext, @tag, @keyId, @now, @now)
                 ON CONFLICT (ref) DO UPDATE SET nonce = excluded.nonce, ciphertext = excluded.ciphertext,
                   tag = excluded.tag, key_id = excluded.key_id, updated_at = excluded.updated_at
                 RETURNING ref, created_at, updated_at`),
      get: p("SELECT nonce, ciphertext, tag, key_id FROM credentials WHERE ref = ?"),
      list: p("SELECT ref, created_at, updated_at FROM credentials ORDER BY ref"),
      has: p("SELECT 1 FROM credentials WHERE ref = ?"),
      delete: p("DELETE FROM credentials WHERE ref = ?"),
    };
  }

  upsert(ref: string, row: SealedSecret, now: number): CredentialMeta {
    return toMeta(this.s.upsert.get({ ref, nonce: row.nonce, ciphertext: row.ciphertext, tag: row.tag, keyId: row.keyId, now }) as MetaRow);
  }

  get(ref: string): SealedSecret | null {
    const r = this.s.get.get(ref) as { nonce: Buffer; ciphertext: Buffer; tag: Buffer; key_id: string } | undefined;
    return r ? { nonce: r.nonce, ciphertext: r.ciphertext, tag: r.tag, keyId: r.key_id } : null;
  }

  list(): CredentialMeta[] {
    return (this.s.list.all() as MetaRow[]).map(toMeta);
  }

  has(ref: string): boolean {
    return this.s.has.get(ref) !== undefined;
  }

  delete(ref: string): boolean {
    return this.s.delete.run(ref).changes > 0;
  }
}
