import { z } from "zod";

const Days = z.number().int().min(1).max(36_500);

/** The two windows of the conversation lifecycle; null = keep forever (stage off). */
export const RetentionSettingsOut = z.object({
  archive_after_days: Days.nullable().describe("Archive conversations with no new message for this many days (default 7)."),
  delete_after_days: Days.nullable().describe("Delete archived conversations this many days after archiving (default 30)."),
});
export type RetentionSettingsOut = z.infer<typeof RetentionSettingsOut>;

/** Omitted fields stay as they are; null turns a stage off. */
export const RetentionSettingsPatch = z.object({
  archive_after_days: Days.nullable().optional(),
  delete_after_days: Days.nullable().optional(),
});
export type RetentionSettingsPatch = z.infer<typeof RetentionSettingsPatch>;
