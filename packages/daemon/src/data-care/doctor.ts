import { existsSync, lstatSync, statfsSync } from "node:fs";
import { join } from "node:path";
import type { DaemonConfig } from "../config.js";
import { DomainError } from "../domain/errors.js";
import { listSnapshots } from "../infrastructure/backup/snapshot-folder.js";
import { keyOpens } from "../infrastructure/credentials/key-check.js";
import { KeyringMasterKey } from "../infrastructure/credentials/keyring-master-key.js";
import { MasterKeyFile } from "../infrastructure/credentials/master-key-file.js";
import { CREDENTIAL_KEY_FILE, KEYRING_MARKER_FILE } from "../infrastructure/credentials/master-key-source.js";
import type { MasterKey } from "../infrastructure/credentials/master-key.js";
import { inspectDatabaseFile, type DatabaseReport } from "../infrastructure/sqlite/database-check.js";

/** One line of `coffer doctor`: what was found, and for anything wrong, the fix in one sentence. */
export interface DoctorFinding {
  readonly level: "ok" | "warning" | "problem";
  readonly text: string;
  readonly fix?: string;
}

const PRIVATE_FILES = ["coffer.db", "coffer.db-wal", "coffer.db-shm", "token", CREDENTIAL_KEY_FILE, KEYRING_MARKER_FILE, "daemon.json", "daemon.lock"];
/** A WAL this large means checkpoints are not keeping up (a reader held open for long). */
const WAL_WARN_BYTES = 64 * 1024 ** 2;
/** Free space below this, or below twice the database, is a problem: a backup or an import would fail. */
const MIN_FREE_BYTES = 256 * 1024 ** 2;

/**
 * `coffer doctor`: checks the data dir where it lies, with or without a daemon running (SQLite
 * readers do not disturb it): the database's integrity, the credentials key present and opening
 * the stored credentials, private modes, free space, the WAL's size and the latest snapshot.
 */
export function runDoctor(options: { readonly config: Pick<DaemonConfig, "home" | "backup" | "cliCommand">; readonly env: NodeJS.ProcessEnv }): DoctorFinding[] {
  const { home, backup, cliCommand } = options.config;
  const out: DoctorFinding[] = [];
  if (!existsSync(home)) {
    out.push({ level: "problem", text: `There is no data dir at ${home}.`, fix: `Start Coffer once (\`${cliCommand} start\`) or restore a backup (\`${cliCommand} restore <file>\`).` });
    return out;
  }
  const latest = listSnapshots(backup.folder)[0];
  const restoreFix = latest
    ? `Stop the daemon and restore the latest snapshot: \`${cliCommand} restore ${latest.path}\`.`
    : `Stop the daemon and restore a backup: \`${cliCommand} restore <file>\`.`;
  const dirMode = lstatSync(home).mode & 0o777;
  out.push(
    dirMode === 0o700
      ? { level: "ok", text: `The data dir ${home} is private (0700).` }
      : { level: "problem", text: `The data dir ${home} is mode ${octal(dirMode)}; other users can look inside.`, fix: `chmod 700 ${home}` },
  );

  const dbFile = join(home, "coffer.db");
  let report: DatabaseReport | null = null;
  if (!existsSync(dbFile)) {
    out.push({ level: "warning", text: `There is no coffer.db in ${home} yet.`, fix: `It is made when the daemon first starts (\`${cliCommand} start\`).` });
  } else {
    report = inspectDatabaseFile(dbFile);
    if (report.problems.length) {
      out.push({ level: "problem", text: `coffer.db fails SQLite's integrity check: ${report.problems.slice(0, 3).join("; ")}.`, fix: restoreFix });
      report = null;
    } else if (report.schemaVersion !== null && report.schemaVersion > report.knownVersion) {
      out.push({ level: "problem", text: `coffer.db is from a newer Coffer (schema ${report.schemaVersion}; this one knows up to ${report.knownVersion}).`, fix: "Update Coffer." });
    } else {
      const c = report.counts;
      out.push({ level: "ok", text: `coffer.db passes SQLite's integrity check (${contents(c)}).` });
    }
  }

  for (const name of PRIVATE_FILES) {
    const path = join(home, name);
    let st;
    try {
      st = lstatSync(path);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) out.push({ level: "problem", text: `${path} is a symbolic link; Coffer refuses to follow it.`, fix: `Remove the link and put the real file there (or restore a backup).` });
    else if ((st.mode & 0o077) !== 0) out.push({ level: "problem", text: `${path} is mode ${octal(st.mode & 0o777)}; other users can read it.`, fix: `chmod 600 ${path}` });
  }

  out.push(...keyFindings(home, options.env, report, cliCommand));

  const walBytes = sizeOf(`${dbFile}-wal`);
  if (walBytes > WAL_WARN_BYTES) {
    out.push({ level: "warning", text: `The write-ahead log (coffer.db-wal) is ${mb(walBytes)}.`, fix: "It folds back into coffer.db at checkpoints; restart the daemon if it keeps growing." });
  }

  try {
    const fs = statfsSync(home);
    const free = Number(fs.bavail) * Number(fs.bsize);
    const need = Math.max(MIN_FREE_BYTES, 2 * (sizeOf(dbFile) + walBytes));
    out.push(
      free < need
        ? { level: "problem", text: `Only ${mb(free)} is free on the disk holding the data dir (a backup needs about ${mb(need)}).`, fix: "Free some space on that disk." }
        : { level: "ok", text: `${mb(free)} free on the disk holding the data dir.` },
    );
  } catch {
    // statfs is not available everywhere: nothing to say
  }

  out.push(...snapshotFindings(backup, cliCommand));
  return out;
}

function keyFindings(home: string, env: NodeJS.ProcessEnv, report: DatabaseReport | null, cliCommand: string): DoctorFinding[] {
  const stored = report?.credentialCount ?? 0;
  const marker = join(home, KEYRING_MARKER_FILE);
  const file = join(home, CREDENTIAL_KEY_FILE);
  const source = existsSync(marker) ? new KeyringMasterKey(marker, home, env) : existsSync(file) ? new MasterKeyFile(file) : null;
  if (!source) {
    return stored > 0
      ? [{ level: "problem", text: `${stored === 1 ? "1 credential is" : `${stored} credentials are`} stored but there is no credentials key to open them.`, fix: `Restore a backup that holds the key (\`${cliCommand} restore <file>\`), or set the credentials again.` }]
      : [{ level: "ok", text: "No credentials key yet; one is made with the first credential." }];
  }
  let key: MasterKey;
  try {
    key = source.get();
  } catch (err) {
    const why = err instanceof DomainError || err instanceof Error ? err.message : String(err);
    return [{ level: "problem", text: `The credentials key cannot be read: ${why}.`, fix: `Restore a backup that holds the key (\`${cliCommand} restore <file>\`).` }];
  }
  if (!report || stored === 0) return [{ level: "ok", text: `The credentials key is present (${source.where}).` }];
  const foreign = report.credentialKeyIds.filter((id) => id !== key.id).length;
  if (foreign > 0 || (report.sample && !keyOpens(key, report.sample))) {
    return [{ level: "problem", text: `The credentials key (${source.where}) does not open the stored credentials.`, fix: `Restore the key with its database from a backup, or set the credentials again.` }];
  }
  return [{ level: "ok", text: `The credentials key is present and opens the stored ${stored === 1 ? "credential" : `credentials (${stored})`}.` }];
}

function snapshotFindings(backup: DaemonConfig["backup"], cliCommand: string): DoctorFinding[] {
  const out: DoctorFinding[] = [];
  const snapshots = listSnapshots(backup.folder);
  const hours = backup.everyMs / 3_600_000;
  if (existsSync(backup.folder)) {
    const mode = lstatSync(backup.folder).mode & 0o777;
    if (mode !== 0o700) out.push({ level: "problem", text: `The snapshot folder ${backup.folder} is mode ${octal(mode)}; backups hold the credentials key.`, fix: `chmod 700 ${backup.folder}` });
  }
  for (const s of snapshots) {
    const mode = lstatSync(s.path).mode & 0o777;
    if ((mode & 0o077) !== 0) out.push({ level: "problem", text: `${s.path} is mode ${octal(mode)}; other users can read it (and the credentials key inside).`, fix: `chmod 600 ${s.path}` });
  }
  const latest = snapshots[0];
  const schedule = hours > 0 ? `the daemon writes one every ${hours} hour${hours === 1 ? "" : "s"}` : "scheduled snapshots are off (COFFER_BACKUP_EVERY_HOURS=0)";
  if (!latest) {
    out.push({ level: "warning", text: `No snapshot in ${backup.folder} yet (${schedule}).`, fix: `\`${cliCommand} backup\` writes one now.` });
  } else if (hours > 0 && Date.now() - latest.createdAt > 2 * backup.everyMs) {
    out.push({ level: "warning", text: `The latest snapshot is from ${new Date(latest.createdAt).toISOString()}, older than the schedule (${schedule}).`, fix: `Check the daemon's log for "the scheduled backup failed", or run \`${cliCommand} backup\`.` });
  } else {
    out.push({ level: "ok", text: `Latest snapshot: ${latest.path} (${mb(latest.sizeBytes)}, ${new Date(latest.createdAt).toISOString()}).` });
  }
  return out;
}

function sizeOf(path: string): number {
  try {
    return lstatSync(path).size;
  } catch {
    return 0;
  }
}

/** "1 conversation, 2 messages, 30 memories, 0 knowledge documents" (also what restore prints). */
export function contents(c: Record<string, number>): string {
  const n = (count: number | undefined, one: string, many: string) => `${count ?? 0} ${count === 1 ? one : many}`;
  return [n(c.conversations, "conversation", "conversations"), n(c.messages, "message", "messages"), n(c.memories, "memory", "memories"), n(c.documents, "knowledge document", "knowledge documents")].join(", ");
}

const octal = (mode: number) => `0${mode.toString(8)}`;
const mb = (bytes: number) => (bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`);
