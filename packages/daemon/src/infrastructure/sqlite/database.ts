import { chmodSync, existsSync, writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import { DatabaseCorrupt } from "../../domain/backup-errors.js";
import { assertReplaceable } from "../system/private-files.js";
import { MIGRATIONS, type Migration } from "./migrations/index.js";

export type Db = Database.Database;

export interface OpenOptions {
  /** Read every page first (quick_check) and refuse a damaged file; true unless the start says otherwise. */
  readonly check?: boolean;
}

export function openDatabase(file: string, migrations: readonly Migration[] = MIGRATIONS, options: OpenOptions = {}): Db {
  if (file !== ":memory:") refuseLinks(file);
  // Created empty at 0600 first: SQLite gives its -wal and -shm files the database file's mode.
  if (file !== ":memory:" && !existsSync(file)) writeFileSync(file, "", { mode: 0o600, flag: "wx" });
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    db.pragma("busy_timeout = 5000");
    if (file !== ":memory:" && options.check !== false) quickCheck(db, file);
  } catch (err) {
    db.close();
    throw corruption(err, file) ?? err;
  }
  migrate(db, migrations);
  makePrivate(file);
  return db;
}

/**
 * Every start checks the file before anything reads or writes it (docs/decisions.md, "Backups,
 * restore and doctor"): PRAGMA quick_check reads every page and checks its structure (not the
 * index-to-row cross checks integrity_check adds), so a damaged page stops the start instead of
 * being served or written over.
 */
function quickCheck(db: Database.Database, file: string): void {
  const found = (db.pragma("quick_check(5)") as { quick_check: string }[]).map((r) => r.quick_check).filter((line) => line !== "ok");
  if (found.length) throw new DatabaseCorrupt(file, `quick_check: ${found.join("; ").slice(0, 400)}`);
}

/** SQLite's own "this is not a database" answers, as the owner's error; anything else is rethrown. */
function corruption(err: unknown, file: string): DatabaseCorrupt | null {
  if (err instanceof DatabaseCorrupt) return err;
  const code = (err as { code?: string }).code;
  if (code === "SQLITE_CORRUPT" || code === "SQLITE_NOTADB" || code?.startsWith("SQLITE_CORRUPT_")) {
    return new DatabaseCorrupt(file, `SQLite: ${(err as Error).message}`);
  }
  return null;
}

/**
 * SQLite follows a link in place of coffer.db (or its -wal/-shm) and would open, migrate and
 * create 0644 side files wherever it points, outside the data dir: refused before SQLite sees it,
 * with the data dir's usual "remove it and start again" (UnsafePrivateFile, DATA_DIR_UNSAFE).
 */
function refuseLinks(file: string): void {
  for (const path of [file, `${file}-wal`, `${file}-shm`]) assertReplaceable(path);
}

/**
 * The database holds memory and MCP server configs: 0600, also for a file an older version made
 * 0644. By path (chmod), never by opening it: closing a descriptor would drop SQLite's locks.
 */
function makePrivate(file: string): void {
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      chmodSync(path, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }
}

/** Applies every migration above the stored user_version, each in its own transaction. */
export function migrate(db: Db, migrations: readonly Migration[]): number {
  const current = db.pragma("user_version", { simple: true }) as number;
  let applied = 0;
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    })();
    applied += 1;
  }
  return applied;
}
