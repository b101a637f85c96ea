import { statSync } from "node:fs";
import { BackupInvalid } from "../domain/backup-errors.js";
import { walkArchive } from "../infrastructure/backup/archive-reader.js";
import { BACKUP_FORMAT, MANIFEST_ENTRY, parseManifest, type BackupManifest } from "../infrastructure/backup/backup-contents.js";
import { LATEST_SCHEMA } from "../infrastructure/sqlite/database-check.js";

/**
 * A backup's manifest (its first entry), checked against this build: the format and the
 * database's schema must not be newer than what this Coffer knows. Throws BackupInvalid.
 */
export async function readBackupManifest(file: string): Promise<BackupManifest> {
  let st;
  try {
    st = statSync(file);
  } catch {
    throw new BackupInvalid(file, "there is no such file");
  }
  if (!st.isFile()) throw new BackupInvalid(file, "it is not a file");
  let text: string | null = null;
  let first: string | null = null;
  try {
    await walkArchive(
      file,
      (entry) => {
        first ??= entry.name;
        if (entry.name !== MANIFEST_ENTRY || entry.type !== "file") return null;
        const parts: Buffer[] = [];
        return async (chunk) => {
          parts.push(chunk);
          text = Buffer.concat(parts).toString("utf8");
        };
      },
      () => true,
    );
  } catch (err) {
    throw new BackupInvalid(file, (err as Error).message);
  }
  if (first !== MANIFEST_ENTRY || text === null) throw new BackupInvalid(file, `it does not start with Coffer's ${MANIFEST_ENTRY}`);
  const manifest = parseManifest(text);
  if (!manifest) throw new BackupInvalid(file, `its ${MANIFEST_ENTRY} is garbled`);
  if (manifest.format > BACKUP_FORMAT) throw new BackupInvalid(file, `it was made by a newer Coffer (backup format ${manifest.format}); update Coffer first`);
  if (manifest.schema_version > LATEST_SCHEMA) {
    throw new BackupInvalid(file, `its database is from a newer Coffer (schema ${manifest.schema_version}; this one knows up to ${LATEST_SCHEMA}); update Coffer first`);
  }
  return manifest;
}
