import { DomainError } from "./errors.js";

/** Where the owner asked a backup to go cannot take it; nothing was written there. */
export class BackupPathInvalid extends DomainError {
  readonly code = "BACKUP_PATH_INVALID";
  constructor(path: string, reason: string) {
    super(`cannot write a backup to ${path}: ${reason}`, { path, reason });
  }
}

/** A file offered to restore (or to check) is not a usable Coffer backup; nothing was changed. */
export class BackupInvalid extends DomainError {
  readonly code = "BACKUP_INVALID";
  constructor(file: string, reason: string) {
    super(`${file} is not a usable Coffer backup: ${reason}; nothing was changed`, { file, reason });
  }
}

/**
 * coffer.db failed SQLite's check at start. The daemon does not run on it (it would serve and
 * write into a damaged file); the message gives the way forward: the latest snapshot's restore
 * command, and doctor.
 */
export class DatabaseCorrupt extends DomainError {
  readonly code = "DATABASE_CORRUPT";
  constructor(
    readonly file: string,
    readonly problem: string,
    wayForward = "",
  ) {
    super(`the database ${file} is damaged (${problem}); the daemon will not run on it.${wayForward ? ` ${wayForward}` : ""}`, { file, problem });
  }
}
