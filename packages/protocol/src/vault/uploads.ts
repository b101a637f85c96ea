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

/** The longest name one path segment may have, in UTF-8 bytes (what file systems allow: ENAMETOOLONG past it). */
export const UPLOAD_MAX_NAME_BYTES = 255;
/** The longest whole path, in UTF-8 bytes: well under PATH_MAX once the data dir is in front of it. */
export const UPLOAD_MAX_PATH_BYTES = 1024;

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/**
 * A file's place inside what was picked: `notes/a.md`, or `a.md` for a lone file. Forward
 * slashes, relative, no `.`/`..` segment, no empty segment: it can never name a place outside
 * the upload. Lengths are counted in bytes, as the file system counts them.
 */
export const UploadPath = z
  .string()
  .min(1)
  .refine((p) => !p.includes("\0") && !p.includes("\\") && p.split("/").every((seg) => seg !== "" && seg !== "." && seg !== ".."), {
    message: "must be a relative path with '/' between names, without '.', '..' or empty parts",
  })
  .refine((p) => utf8Bytes(p) <= UPLOAD_MAX_PATH_BYTES, { message: `must be at most ${UPLOAD_MAX_PATH_BYTES} bytes long` })
  .refine((p) => p.split("/").every((seg) => utf8Bytes(seg) <= UPLOAD_MAX_NAME_BYTES), {
    message: `each name in the path must be at most ${UPLOAD_MAX_NAME_BYTES} bytes long`,
  });

export const UploadFile = z.object({
  path: UploadPath,
  content_base64: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, "must be base64").describe("The file's bytes, base64-encoded."),
});
export type UploadFile = z.infer<typeof UploadFile>;

/** The first path that is both a file and a folder of another file in the list (`a` and `a/b.md`), or null. */
function fileAndFolder(paths: readonly string[]): string | null {
  const all = new Set(paths);
  for (const p of paths) {
    const parts = p.split("/");
    for (let i = 1; i < parts.length; i += 1) {
      const folder = parts.slice(0, i).join("/");
      if (all.has(folder)) return folder;
    }
  }
  return null;
}

const files = z
  .array(UploadFile)
  .min(1)
  .max(UPLOAD_MAX_FILES)
  .refine((list) => new Set(list.map((f) => f.path)).size === list.length, { message: "two files share one path" })
  .superRefine((list, ctx) => {
    const clash = fileAndFolder(list.map((f) => f.path));
    if (clash) ctx.addIssue({ code: "custom", message: `'${clash}' is both a file and a folder in this upload` });
  });

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
