import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync, unlinkSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import type { BackupRecord, SnapshotFolder } from "../../application/backup/ports.js";
import { BackupPathInvalid } from "../../domain/backup-errors.js";

/** coffer-backup-20261204-165527-123.tar.gz (UTC), with -without-key when the key was left out. */
const NAME = /^coffer-backup-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-(\d{3})(-without-key)?\.tar\.gz$/;

export function backupFileName(now: number, withoutKey: boolean): string {
  const d = new Date(now);
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  const stamp = `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}-${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}-${p(d.getUTCMilliseconds(), 3)}`;
  return `coffer-backup-${stamp}${withoutKey ? "-without-key" : ""}.tar.gz`;
}

function parseName(name: string): { createdAt: number; keyIncluded: boolean } | null {
  const m = NAME.exec(name);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, ms, nokey] = m;
  return { createdAt: Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s!, +ms!), keyIncluded: !nokey };
}

/** Makes the folder if needed and keeps it 0700: every file in it can hold the credentials key. */
export function ensureSnapshotFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const st = statSync(folder);
  const uid = typeof process.getuid === "function" ? process.getuid() : null;
  if ((uid === null || st.uid === uid) && (st.mode & 0o777) !== 0o700) chmodSync(folder, 0o700);
}

/** Snapshots in `folder`, newest first; an absent folder has none. */
export function listSnapshots(folder: string): BackupRecord[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const out: BackupRecord[] = [];
  for (const name of names) {
    const parsed = parseName(name);
    if (!parsed) continue;
    try {
      const st = lstatSync(join(folder, name));
      if (st.isFile()) out.push({ path: join(folder, name), sizeBytes: st.size, ...parsed });
    } catch {
      // removed meanwhile
    }
  }
  return out.sort((a, b) => b.createdAt - a.createdAt || (a.path < b.path ? 1 : -1));
}

export class FileSnapshotFolder implements SnapshotFolder {
  constructor(readonly folder: string) {}

  pathFor(now: number, withoutKey: boolean): string {
    ensureSnapshotFolder(this.folder);
    return join(this.folder, backupFileName(now, withoutKey));
  }

  list(): BackupRecord[] {
    return listSnapshots(this.folder);
  }

  remove(path: string): void {
    try {
      unlinkSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }

  resolveTarget(path: string, now: number, withoutKey: boolean): string {
    if (!isAbsolute(path)) throw new BackupPathInvalid(path, "give an absolute path");
    let st;
    try {
      st = statSync(path);
    } catch {
      st = null;
    }
    if (st?.isDirectory()) return join(path, backupFileName(now, withoutKey));
    if (st) throw new BackupPathInvalid(path, "a file is already there (a backup never overwrites one)");
    const parent = dirname(path);
    let parentStat;
    try {
      parentStat = statSync(parent);
    } catch {
      throw new BackupPathInvalid(path, `its folder ${parent} does not exist`);
    }
    if (!parentStat.isDirectory()) throw new BackupPathInvalid(path, `${parent} is not a folder`);
    return path;
  }
}
