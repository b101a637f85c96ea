import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, linkSync, lstatSync, openSync, readdirSync, statSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import type { BackupRecord, BackupWriter } from "../../application/backup/ports.js";
import { BackupPathInvalid } from "../../domain/backup-errors.js";
import { StorageFull } from "../../domain/settings-errors.js";
import { writeArchive, type ArchiveEntry } from "./archive-writer.js";
import { BACKUP_FOLDERS, BACKUP_FORMAT, DATABASE_ENTRY, KEY_ENTRY, MANIFEST_ENTRY, type BackupManifest } from "./backup-contents.js";

export interface BackupSources {
  /** The data dir: the database copy is staged here (private, and on the database's disk). */
  readonly home: string;
  readonly version: string;
  /** Copies the live database to `to` (SQLite's online backup API); returns its schema version. */
  snapshotDatabase(to: string): Promise<number>;
  /** The credentials key as credentials.key stores it, and its fingerprint; null while the data dir has none. */
  key(): { readonly text: string; readonly id: string } | null;
  /**
   * Told when the key could not be read (garbled file, locked keyring): the backup is written
   * without it rather than not at all — the database matters most exactly when things are broken.
   */
  onKeyProblem?(err: unknown): void;
}

const DISK_FULL = new Set(["ENOSPC", "EDQUOT"]);

/** Writes backups as one gzipped tar (backup-contents.ts says what is inside). */
export class ArchiveBackupWriter implements BackupWriter {
  constructor(private readonly s: BackupSources) {}

  async write(target: string, options: { readonly withoutKey: boolean; readonly now: number }): Promise<BackupRecord> {
    const tag = randomBytes(6).toString("hex");
    const stagedDb = join(this.s.home, `.backup-${tag}.db`);
    const partial = `${target}.partial-${tag}`;
    try {
      const schemaVersion = await this.s.snapshotDatabase(stagedDb);
      let key: { readonly text: string; readonly id: string } | null = null;
      try {
        key = this.s.key();
      } catch (err) {
        this.s.onKeyProblem?.(err);
      }
      const folders = BACKUP_FOLDERS.filter((f) => isDir(join(this.s.home, f)));
      const manifest: BackupManifest = {
        format: BACKUP_FORMAT,
        coffer_version: this.s.version,
        created_at: options.now,
        schema_version: schemaVersion,
        key_included: key !== null && !options.withoutKey,
        key_id: key?.id ?? null,
        folders,
      };
      const entries: ArchiveEntry[] = [
        { name: MANIFEST_ENTRY, type: "file", mode: 0o600, mtime: options.now, data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) },
        { name: DATABASE_ENTRY, type: "file", mode: 0o600, mtime: options.now, file: stagedDb, size: statSync(stagedDb).size },
      ];
      if (key && !options.withoutKey) entries.push({ name: KEY_ENTRY, type: "file", mode: 0o600, mtime: options.now, data: Buffer.from(key.text) });
      for (const folder of folders) entries.push(...folderEntries(this.s.home, folder));
      await writeArchive(partial, entries);
      // link, not rename: a file that appeared at the target meanwhile is never replaced.
      linkSync(partial, target);
      syncDir(dirname(target));
      return { path: target, sizeBytes: statSync(target).size, createdAt: options.now, keyIncluded: manifest.key_included };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? "";
      if (DISK_FULL.has(code)) throw new StorageFull("the backup");
      if (code === "EEXIST") throw new BackupPathInvalid(target, "a file is already there (a backup never overwrites one)");
      if (code === "EACCES" || code === "EPERM" || code === "EROFS" || code === "ENOENT" || code === "ENOTDIR") {
        throw new BackupPathInvalid(target, `it cannot be written there (${code})`);
      }
      throw err;
    } finally {
      for (const path of [stagedDb, `${stagedDb}-journal`, `${stagedDb}-wal`, `${stagedDb}-shm`, partial]) removeQuietly(path);
    }
  }
}

/**
 * Removes what a backup killed mid-way left (the daemon was killed, the machine lost power): the
 * staged database copies in the data dir and half-written archives in the snapshot folder. Run
 * at start, while the daemon lock is held, so no backup is being written.
 */
export function sweepBackupLeftovers(home: string, folder: string): string[] {
  const removed: string[] = [];
  const sweep = (dir: string, leftover: RegExp) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (!leftover.test(name)) continue;
      removeQuietly(join(dir, name));
      removed.push(join(dir, name));
    }
  };
  sweep(home, /^\.backup-[0-9a-f]{12}\.db(-journal|-wal|-shm)?$/);
  sweep(folder, /\.partial-[0-9a-f]{12}$/);
  return removed;
}

/** A folder's regular files and subfolders, depth first; links and special files are not carried. */
function folderEntries(home: string, folder: string): ArchiveEntry[] {
  const out: ArchiveEntry[] = [];
  const walk = (rel: string) => {
    const st = lstatSync(join(home, rel));
    out.push({ name: rel, type: "dir", mode: 0o700, mtime: st.mtimeMs });
    for (const name of readdirSync(join(home, rel)).sort()) {
      const child = `${rel}/${name}`;
      const cst = lstatSync(join(home, child));
      if (cst.isDirectory()) walk(child);
      else if (cst.isFile()) out.push({ name: child, type: "file", mode: 0o600, mtime: cst.mtimeMs, file: join(home, child), size: cst.size });
    }
  };
  walk(folder);
  return out;
}

function isDir(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // some file systems refuse fsync on a folder; the file itself was synced
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // not there
  }
}
