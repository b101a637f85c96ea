import { z } from "zod";

/**
 * Uploads from the page: files the owner picked or dropped in the browser, sent as JSON with
 * each file's bytes in base64 (docs/decisions.md, "Vault, Settings and retention on the page").
 * The daemon feeds them to the same import pipeline a path import uses.
 */

/** The largest upload body the daemon reads (base64 makes files about a third bigger). */
export const UPLOAD_MAX_BODY_BYTES = 32 * 1024 * 1024;
/** The most files one upload may carry (a path import's scan caps at 10 000 too). */
export const UPLOAD_MAX_FILES = 10_000;

/**
 * A file's place inside what was picked: `notes/a.md`, or `a.md` for a lone file. Forward
 * slashes, relative, no `.`/`..` segment, no empty segment: it can never name a place outside
 * the upload.
 */
export const UploadPath = z
  .string()
  .min(1)
  .max(1024)
  .refine((p) => !p.includes("\0") && !p.includes("\\") && p.split("/").every((seg) => seg !== "" && seg !== "." && seg !== ".."), {
    message: "must be a relative path with '/' between names, without '.', '..' or empty parts",
  });

export const UploadFile = z.object({
  path: UploadPath,
  content_base64: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, "must be base64").describe("The file's bytes, base64-encoded."),
});
export type UploadFile = z.infer<typeof UploadFile>;

const files = z
  .array(UploadFile)
  .min(1)
  .max(UPLOAD_MAX_FILES)
  .refine((list) => new Set(list.map((f) => f.path)).size === list.length, { message: "two files share one path" });

export const KnowledgeUploadIn = z.object({
  label: z.string().trim().min(1).max(300).optional().describe("What the import shows as its source, e.g. the folder's name (default: 'upload')."),
  files,
});
export type KnowledgeUploadIn = z.infer<typeof KnowledgeUploadIn>;

export const SkillUploadIn = z.object({
  files: files.describe("A skill folder's files (its SKILL.md at `<folder>/SKILL.md` or at the top), or several skill folders."),
  overwrite: z.boolean().optional().describe("Replace skills that already exist (default: skip them)."),
});
export type SkillUploadIn = z.infer<typeof SkillUploadIn>;
