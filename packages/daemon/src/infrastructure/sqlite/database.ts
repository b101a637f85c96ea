import Database from "better-sqlite3";
import { MIGRATIONS, type Migration } from "./migrations/index.js";

export type Db = Database.Database;

export function openDatabase(file: string, migrations: readonly Migration[] = MIGRATIONS): Db {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  migrate(db, migrations);
  return db;
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
