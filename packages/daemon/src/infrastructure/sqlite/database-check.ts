import Database from "better-sqlite3";
import type { SealedSecret } from "../../application/credentials/ports.js";
import { MIGRATIONS } from "./migrations/index.js";

/** What SQLite says of a database file, for restore's and doctor's checks. */
export interface DatabaseReport {
  /** integrity_check's findings ("ok" is none); an unopenable file is one finding. */
  readonly problems: string[];
  readonly schemaVersion: number | null;
  /** The newest schema this build knows (MIGRATIONS). */
  readonly knownVersion: number;
  /** Every key fingerprint the stored credentials were sealed with. */
  readonly credentialKeyIds: string[];
  readonly credentialCount: number;
  /** One sealed credential, to prove a key opens it. */
  readonly sample: (SealedSecret & { readonly ref: string }) | null;
  /** Row counts of what the owner keeps, for the report (conversations, messages, memory, knowledge documents, queued messages). */
  readonly counts: Record<string, number>;
}

export const LATEST_SCHEMA = Math.max(...MIGRATIONS.map((m) => m.version));

const COUNTED: Record<string, string> = {
  conversations: "conversations",
  messages: "messages",
  memories: "memory_facts",
  documents: "knowledge_documents",
  queued: "pending_messages",
};

/**
 * Opens `file` (which must exist; never created) and runs PRAGMA integrity_check (`quick`:
 * quick_check, which skips the index-to-table cross checks). Opened read-write, without
 * migrating: a WAL database needs its -shm to be readable, and a daemon running on the same
 * file only sees another reader.
 */
export function inspectDatabaseFile(file: string, options: { readonly quick?: boolean } = {}): DatabaseReport {
  const empty = { schemaVersion: null, knownVersion: LATEST_SCHEMA, credentialKeyIds: [], credentialCount: 0, sample: null, counts: {} };
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true, timeout: 5000 });
  } catch (err) {
    return { ...empty, problems: [`it cannot be opened (${(err as Error).message})`] };
  }
  try {
    const check = options.quick ? "quick_check" : "integrity_check";
    const found = (db.pragma(`${check}(20)`) as Record<string, string>[]).map((r) => Object.values(r)[0] ?? "").filter((line) => line !== "ok");
    if (found.length) return { ...empty, problems: found };
    const schemaVersion = db.pragma("user_version", { simple: true }) as number;
    const has = (table: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
    const counts: Record<string, number> = {};
    for (const [label, table] of Object.entries(COUNTED)) {
      if (has(table)) counts[label] = (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    }
    if (!has("credentials")) return { ...empty, problems: [], schemaVersion, counts };
    const keyIds = (db.prepare("SELECT DISTINCT key_id FROM credentials").all() as { key_id: string }[]).map((r) => r.key_id);
    const credentialCount = (db.prepare("SELECT count(*) AS n FROM credentials").get() as { n: number }).n;
    const row = db.prepare("SELECT ref, nonce, ciphertext, tag, key_id FROM credentials ORDER BY ref LIMIT 1").get() as
      | { ref: string; nonce: Buffer; ciphertext: Buffer; tag: Buffer; key_id: string }
      | undefined;
    const sample = row ? { ref: row.ref, nonce: row.nonce, ciphertext: row.ciphertext, tag: row.tag, keyId: row.key_id } : null;
    return { problems: [], schemaVersion, knownVersion: LATEST_SCHEMA, credentialKeyIds: keyIds, credentialCount, sample, counts };
  } catch (err) {
    return { ...empty, problems: [`SQLite could not read it (${(err as Error).message})`] };
  } finally {
    db.close();
  }
}
