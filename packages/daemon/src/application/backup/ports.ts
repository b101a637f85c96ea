/** One backup file, as the service reports it. */
export interface BackupRecord {
  readonly path: string;
  readonly sizeBytes: number;
  readonly createdAt: number;
  readonly keyIncluded: boolean;
}

/** Writes one backup file: the database (online), the credentials key unless left out, the data dir's folders. */
export interface BackupWriter {
  /** `target` must not exist; the file appears there whole (temp, then rename) or not at all. */
  write(target: string, options: { readonly withoutKey: boolean; readonly now: number }): Promise<BackupRecord>;
}

/** The snapshot folder (COFFER_BACKUP_DIR), and owner-named paths. */
export interface SnapshotFolder {
  readonly folder: string;
  /** A new snapshot's path in the folder, which is made (0700) if missing. */
  pathFor(now: number, withoutKey: boolean): string;
  /** Snapshots in the folder, newest first: only files named as Coffer names them. */
  list(): BackupRecord[];
  remove(path: string): void;
  /** Where an owner-named path puts the backup (a folder gets a named file); throws BackupPathInvalid. */
  resolveTarget(path: string, now: number, withoutKey: boolean): string;
}
