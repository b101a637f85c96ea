/**
 * What a Coffer backup holds (docs/decisions.md, "Backups, restore and doctor"): one gzipped
 * tar with the manifest first, then the database, the credentials key (unless left out), and
 * the data-dir folders below, whole, when they exist.
 */
export const BACKUP_FORMAT = 1;
export const MANIFEST_ENTRY = "coffer-backup.json";
export const DATABASE_ENTRY = "coffer.db";
export const KEY_ENTRY = "credentials.key";
/**
 * Data-dir folders a backup carries: skills live on disk, and agent-sessions holds the copies of
 * the agents' own transcripts (the session keeper). One list, so a new folder is one line here.
 */
export const BACKUP_FOLDERS = ["skills", "agent-sessions", "attachments"] as const;

export interface BackupManifest {
  readonly format: number;
  readonly coffer_version: string;
  readonly created_at: number;
  readonly schema_version: number;
  readonly key_included: boolean;
  /** The key's fingerprint (never the key), also when it was left out: restore finds a matching key file by it. */
  readonly key_id: string | null;
  readonly folders: readonly string[];
}

/** A name restore accepts: the manifest, the database, the key, or something under a listed folder. */
export function belongsInBackup(name: string): boolean {
  if (name === MANIFEST_ENTRY || name === DATABASE_ENTRY || name === KEY_ENTRY) return true;
  return BACKUP_FOLDERS.some((folder) => name === folder || name.startsWith(`${folder}/`));
}

export function parseManifest(text: string): BackupManifest | null {
  try {
    const m = JSON.parse(text) as Partial<BackupManifest>;
    if (typeof m.format !== "number" || typeof m.created_at !== "number" || typeof m.schema_version !== "number" || typeof m.key_included !== "boolean") return null;
    return {
      format: m.format,
      coffer_version: String(m.coffer_version ?? "?"),
      created_at: m.created_at,
      schema_version: m.schema_version,
      key_included: m.key_included,
      key_id: typeof m.key_id === "string" ? m.key_id : null,
      folders: Array.isArray(m.folders) ? m.folders.filter((f): f is string => typeof f === "string") : [],
    };
  } catch {
    return null;
  }
}
