import { BackupService } from "./application/backup/backup-service.js";
import type { Clock, Logger } from "./application/ports.js";
import type { DaemonConfig } from "./config.js";
import { ArchiveBackupWriter, sweepBackupLeftovers } from "./infrastructure/backup/backup-writer.js";
import { FileSnapshotFolder, listSnapshots } from "./infrastructure/backup/snapshot-folder.js";
import type { Db } from "./infrastructure/sqlite/database.js";
import { snapshotDatabase } from "./infrastructure/sqlite/database-snapshot.js";

/** Ten minutes after a start, unless a snapshot is due later (docs/decisions.md, "Backups, restore and doctor"). */
export const FIRST_SNAPSHOT_DELAY_MS = 10 * 60_000;

export interface BackupGraphDeps {
  readonly db: Db;
  readonly home: string;
  readonly config: Pick<DaemonConfig, "backup">;
  readonly version: string;
  /** The credentials key as stored, or null while the data dir has none (compose-settings). */
  readonly key: () => { readonly text: string; readonly id: string } | null;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly firstDelayMs?: number;
}

/** Part of the composition root: "Back up now" and the scheduled snapshots. */
export function composeBackups(d: BackupGraphDeps): BackupService {
  const swept = sweepBackupLeftovers(d.home, d.config.backup.folder);
  if (swept.length) d.logger.info("removed what an interrupted backup left", { files: swept });
  const writer = new ArchiveBackupWriter({
    home: d.home,
    version: d.version,
    snapshotDatabase: (to) => snapshotDatabase(d.db, to),
    key: d.key,
    onKeyProblem: (err) =>
      d.logger.warn("the credentials key could not be read, so this backup was written without it", { err: err instanceof Error ? err.message : String(err) }),
  });
  return new BackupService({
    writer,
    folder: new FileSnapshotFolder(d.config.backup.folder),
    schedule: { everyMs: d.config.backup.everyMs, keep: d.config.backup.keep, firstDelayMs: d.firstDelayMs ?? FIRST_SNAPSHOT_DELAY_MS },
    clock: d.clock,
    logger: d.logger,
  });
}

/**
 * The way forward when coffer.db is damaged at start: the newest snapshot's exact restore
 * command, and doctor.
 */
export function corruptionWayForward(folder: string, home: string, cliCommand: string): string {
  const latest = listSnapshots(folder)[0];
  const homeFlag = ` --data-dir ${quote(home)}`;
  const restore = latest
    ? `Restore the latest snapshot (${new Date(latest.createdAt).toISOString()}): \`${cliCommand} restore ${quote(latest.path)}${homeFlag}\` (the damaged data dir is kept beside it).`
    : `No snapshot was found in ${folder}; restore a backup you keep elsewhere with \`${cliCommand} restore <file>${homeFlag}\`.`;
  return `${restore} \`${cliCommand} doctor\` says more.`;
}

function quote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
