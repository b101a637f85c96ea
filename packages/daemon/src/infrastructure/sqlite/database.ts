import { chmodSync, existsSync, writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import { assertReplaceable } from "../system/private-files.js";
import { MIGRATIONS, type Migration } from "./migrations/index.js";

export type Db = Database.Database;

export function openDatabase(file: string, migrations: readonly Migration[] = MIGRATIONS): Db {
  if (file !== ":memory:") refuseLinks(file);
  // Created empty at 0600 first: SQLite gives its -wal and -shm files the database file's mode.
  if (file !== ":memory:" && !existsSync(file)) writeFileSync(file, "", { mode: 0o600, flag: "wx" });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  migrate(db, migrations);
  makePrivate(file);
  return db;
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
