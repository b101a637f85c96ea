import { randomBytes } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { BackupInvalid } from "../domain/backup-errors.js";
import { extractArchive } from "../infrastructure/backup/archive-reader.js";
import { belongsInBackup, DATABASE_ENTRY, KEY_ENTRY, MANIFEST_ENTRY, type BackupManifest } from "../infrastructure/backup/backup-contents.js";
import { keyFromText, keyOpens } from "../infrastructure/credentials/key-check.js";
import { CREDENTIAL_KEY_FILE } from "../infrastructure/credentials/master-key-source.js";
import { acquireDaemonLock, assertDatabaseUnused, type DaemonLock } from "../infrastructure/sqlite/daemon-lock.js";
import { inspectDatabaseFile } from "../infrastructure/sqlite/database-check.js";
import { readBackupManifest } from "./backup-file.js";

/** Moved from the data dir being replaced into the restored one: they are not in a backup, and belong to this machine. */
const CARRIED_OVER = ["backups", "token"] as const;

export interface RestoreResult {
  readonly home: string;
  /** Where the data dir that was there went (kept, never deleted), or null when there was none. */
  readonly previous: string | null;
  readonly manifest: BackupManifest;
  /** in the backup; carried from the data dir it replaced (same key); or none: credentials must be set again. */
  readonly key: "restored" | "carried" | "none";
  readonly credentials: number;
  readonly counts: Record<string, number>;
}

/**
 * `coffer restore <file>`: refuses while a daemon runs on the data dir (its lock), checks the
 * whole backup in a staging folder beside the data dir (SQLite's integrity_check, the schema
 * not newer than this build, the key opening a stored credential), and only then moves the
 * current data dir aside (`<dir>.before-restore-<time>`, never deleted) and the staged one in.
 */
export async function restoreBackup(options: { readonly file: string; readonly home: string; readonly now?: number }): Promise<RestoreResult> {
  const file = resolve(options.file);
  const home = resolve(options.home);
  const manifest = await readBackupManifest(file);
  let lock: DaemonLock | null = null;
  if (existsSync(home)) {
    lock = acquireDaemonLock(home);
    try {
      assertDatabaseUnused(home, join(home, "coffer.db"));
    } catch (err) {
      lock.release();
      throw err;
    }
  }
  const staging = join(dirname(home), `.${basename(home)}.restoring-${randomBytes(4).toString("hex")}`);
  try {
    mkdirSync(dirname(home), { recursive: true });
    mkdirSync(staging, { mode: 0o700 });
    try {
      await extractArchive(file, staging, (entry) => belongsInBackup(entry.name));
    } catch (err) {
      throw new BackupInvalid(file, (err as Error).message);
    }
    const checked = checkStaged(file, staging, home, manifest);
    rmSync(join(staging, MANIFEST_ENTRY)); // the backup's label, not part of a data dir
    const previous = existsSync(home) ? `${home}.before-restore-${stamp(options.now ?? Date.now())}` : null;
    if (previous) {
      renameSync(home, previous);
      for (const name of CARRIED_OVER) if (existsSync(join(previous, name))) renameSync(join(previous, name), join(staging, name));
    }
    renameSync(staging, home);
    chmodSync(home, 0o700);
    return { home, previous, manifest, ...checked };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    lock?.release();
  }
}

function checkStaged(file: string, staging: string, home: string, manifest: BackupManifest): Pick<RestoreResult, "key" | "credentials" | "counts"> {
  const db = join(staging, DATABASE_ENTRY);
  if (!existsSync(db)) throw new BackupInvalid(file, "it holds no database");
  const report = inspectDatabaseFile(db);
  if (report.problems.length) throw new BackupInvalid(file, `its database fails SQLite's integrity check (${report.problems.slice(0, 3).join("; ")})`);
  if (report.schemaVersion !== null && report.schemaVersion > report.knownVersion) {
    throw new BackupInvalid(file, `its database is from a newer Coffer (schema ${report.schemaVersion}); update Coffer first`);
  }
  const opensAll = (text: string) => {
    const key = keyFromText(text);
    if (!key) return null;
    if (report.credentialKeyIds.some((id) => id !== key.id)) return false;
    return report.sample ? keyOpens(key, report.sample) : true;
  };
  const stagedKey = join(staging, KEY_ENTRY);
  if (existsSync(stagedKey)) {
    const opens = opensAll(readFileSync(stagedKey, "utf8"));
    if (opens === null) throw new BackupInvalid(file, "its credentials key is garbled");
    if (!opens) throw new BackupInvalid(file, "its credentials key does not open its stored credentials");
    return { key: "restored", credentials: report.credentialCount, counts: report.counts };
  }
  // A backup made without the key: the data dir it replaces may hold the same key.
  const current = join(home, CREDENTIAL_KEY_FILE);
  if (manifest.key_id && existsSync(current)) {
    const text = readFileSync(current, "utf8");
    if (keyFromText(text)?.id === manifest.key_id && opensAll(text)) {
      copyFileSync(current, stagedKey);
      chmodSync(stagedKey, 0o600);
      return { key: "carried", credentials: report.credentialCount, counts: report.counts };
    }
  }
  return { key: "none", credentials: report.credentialCount, counts: report.counts };
}

function stamp(now: number): string {
  return new Date(now).toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
}
