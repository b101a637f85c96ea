import Database from "better-sqlite3";
import type { Db } from "./database.js";

/**
 * A consistent copy of the live database at `to`, through SQLite's online backup API while the
 * daemon keeps writing: it copies a batch of pages per event-loop turn, and a write made on
 * this same connection meanwhile is carried into the copy by SQLite itself, so the copy is
 * the database as of the moment it finished. Returns the copy's schema version.
 */
export async function snapshotDatabase(db: Db, to: string): Promise<number> {
  await db.backup(to);
  return db.pragma("user_version", { simple: true }) as number;
}

/**
 * The same from a database no daemon has open (`coffer backup` with the daemon stopped; the
 * caller holds the daemon lock). Opened read-write so a WAL left by a killed daemon is read
 * back in (a read-only connection cannot always recover it), but never migrated.
 */
export async function snapshotDatabaseFile(file: string, to: string): Promise<number> {
  const db = new Database(file, { fileMustExist: true, timeout: 5000 });
  try {
    return await snapshotDatabase(db, to);
  } finally {
    db.close();
  }
}
