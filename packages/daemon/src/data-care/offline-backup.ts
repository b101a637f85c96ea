import { existsSync } from "node:fs";
import { join } from "node:path";
import type { BackupOut, BackupRequest } from "@coffer/protocol";
import { BackupService } from "../application/backup/backup-service.js";
import type { Logger } from "../application/ports.js";
import type { DaemonConfig } from "../config.js";
import { BackupPathInvalid } from "../domain/backup-errors.js";
import { ArchiveBackupWriter } from "../infrastructure/backup/backup-writer.js";
import { FileSnapshotFolder } from "../infrastructure/backup/snapshot-folder.js";
import { keyText } from "../infrastructure/credentials/key-check.js";
import { KeyringMasterKey } from "../infrastructure/credentials/keyring-master-key.js";
import { MasterKeyFile } from "../infrastructure/credentials/master-key-file.js";
import { CREDENTIAL_KEY_FILE, KEYRING_MARKER_FILE } from "../infrastructure/credentials/master-key-source.js";
import { acquireDaemonLock, assertDatabaseUnused } from "../infrastructure/sqlite/daemon-lock.js";
import { snapshotDatabaseFile } from "../infrastructure/sqlite/database-snapshot.js";
import { VERSION } from "../version.js";

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * `coffer backup` while no daemon runs: the same file a running daemon writes, from the data
 * dir directly. The daemon lock is held throughout, so no daemon starts (and writes) meanwhile;
 * a running daemon makes this throw DAEMON_ALREADY_RUNNING (the CLI asks that daemon instead).
 */
export async function backupOffline(options: {
  readonly config: Pick<DaemonConfig, "home" | "backup">;
  readonly env: NodeJS.ProcessEnv;
  readonly request: BackupRequest;
  readonly now?: number;
}): Promise<BackupOut> {
  const home = options.config.home;
  const db = join(home, "coffer.db");
  if (!existsSync(db)) throw new BackupPathInvalid(home, "there is no coffer.db in this data dir, so nothing to back up");
  const lock = acquireDaemonLock(home);
  try {
    assertDatabaseUnused(home, db);
    const key = () => {
      const source = existsSync(join(home, KEYRING_MARKER_FILE))
        ? new KeyringMasterKey(join(home, KEYRING_MARKER_FILE), home, options.env)
        : existsSync(join(home, CREDENTIAL_KEY_FILE))
          ? new MasterKeyFile(join(home, CREDENTIAL_KEY_FILE))
          : null;
      if (!source) return null;
      const k = source.get();
      return { text: keyText(k), id: k.id };
    };
    const service = new BackupService({
      writer: new ArchiveBackupWriter({ home, version: VERSION, snapshotDatabase: (to) => snapshotDatabaseFile(db, to), key }),
      folder: new FileSnapshotFolder(options.config.backup.folder),
      schedule: { everyMs: 0, keep: options.config.backup.keep, firstDelayMs: 0 },
      clock: { now: () => options.now ?? Date.now() },
      logger: quiet,
    });
    return await service.backupNow(options.request);
  } finally {
    lock.release();
  }
}
