import { chmodSync, existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { readDaemonInfo } from "../system/daemon-info-file.js";
import { assertReplaceable } from "../system/private-files.js";

export const LOCK_FILE = "daemon.lock";

/** A second daemon asked for a data dir another live daemon holds. */
export class DaemonAlreadyRunning extends Error {
  readonly code = "DAEMON_ALREADY_RUNNING";
  constructor(home: string) {
    const info = readDaemonInfo(home);
    const who = info?.pid ? `pid ${info.pid}${info.url ? `, ${info.url}` : ""}` : "see its daemon.json";
    super(`another Coffer daemon is already running on ${home} (${who}); stop it first or use another --home`);
  }
}

export interface DaemonLock {
  release(): void;
}

/**
 * One daemon per data dir (docs/decisions.md, Storage): an exclusive SQLite lock on
 * `daemon.lock`, taken with `locking_mode=EXCLUSIVE` and an open `BEGIN EXCLUSIVE` that is never
 * committed. SQLite holds it as a kernel (fcntl) lock, so the OS drops it when the process dies,
 * even on kill -9: the next start takes over without guessing whether a pid is stale.
 */
export function acquireDaemonLock(home: string): DaemonLock {
  const file = join(home, LOCK_FILE);
  assertReplaceable(file);
  const db = new Database(file, { timeout: 0 });
  try {
    // Journal in memory: the file holds no data, and a -journal file would be one more file to keep 0600.
    db.pragma("journal_mode = MEMORY");
    db.pragma("locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE");
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === "SQLITE_BUSY") throw new DaemonAlreadyRunning(home);
    throw err;
  }
  // By path, never through a descriptor: closing a descriptor would drop this process's lock.
  chmodSync(file, 0o600);
  return {
    release() {
      if (!db.open) return;
      db.exec("ROLLBACK");
      db.close();
    },
  };
}

/**
 * daemon.lock is only a name in the dir: delete it and the next start locks a fresh inode while
 * the first daemon runs on. The database cannot be swapped that way, and a live daemon keeps it
 * open in WAL mode, which holds a shared lock on it even when idle. So after taking
 * daemon.lock the start also asks for an exclusive lock on coffer.db (timeout 0): busy means
 * another process has it open, and the start is refused. The probe lets go at once, before the
 * database is opened for real (docs/decisions.md, "Hardening II: daemon resources and files").
 */
export function assertDatabaseUnused(home: string, file: string): void {
  assertReplaceable(file); // the probe must not follow a link either
  if (!existsSync(file)) return;
  const probe = new Database(file, { timeout: 0, fileMustExist: true });
  try {
    probe.pragma("locking_mode = EXCLUSIVE");
    probe.exec("BEGIN EXCLUSIVE");
    probe.exec("ROLLBACK");
  } catch (err) {
    if ((err as { code?: string }).code === "SQLITE_BUSY") throw new DaemonAlreadyRunning(home);
    throw err;
  } finally {
    probe.close();
  }
}
