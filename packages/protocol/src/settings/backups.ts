import { z } from "zod";

/** One backup file: the database, the credentials key (unless left out) and the data dir's folders, in one archive. */
export const BackupOut = z.object({
  path: z.string().describe("Absolute path of the backup file."),
  size_bytes: z.number().int().min(0),
  created_at: z.number().int().describe("When it was taken (ms since the epoch)."),
  key_included: z.boolean().describe("Whether the credentials key is inside: anyone holding the file can then decrypt the stored credentials."),
});
export type BackupOut = z.infer<typeof BackupOut>;

/** "Back up now": into the snapshot folder (rotated with the scheduled ones), or to a path the owner names. */
export const BackupRequest = z.object({
  path: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe("Absolute path: an existing folder (a named file is made in it) or a new file's name. Omitted: the snapshot folder."),
  without_key: z.boolean().optional().describe("Leave the credentials key out (the credentials cannot be decrypted from this backup alone)."),
});
export type BackupRequest = z.infer<typeof BackupRequest>;

/** Scheduled snapshots: where they go, how many are kept, the last one and when the next is due. */
export const BackupStatusOut = z.object({
  folder: z.string().describe("The snapshot folder (COFFER_BACKUP_DIR; default <data dir>/backups)."),
  keep: z.number().int().min(0).describe("Snapshots kept in the folder, newest first (COFFER_BACKUP_KEEP; 0 = never delete)."),
  every_hours: z.number().min(0).describe("Hours between scheduled snapshots (COFFER_BACKUP_EVERY_HOURS; 0 = no schedule)."),
  last: BackupOut.nullable().describe("The newest snapshot in the folder, or null."),
  next_due_at: z.number().int().nullable().describe("When the next scheduled snapshot is taken (ms since the epoch), or null when off."),
  running: z.boolean().describe("A backup is being written now."),
  last_error: z.object({ message: z.string(), at: z.number().int() }).nullable().describe("Why the latest scheduled snapshot failed, until one succeeds."),
});
export type BackupStatusOut = z.infer<typeof BackupStatusOut>;
