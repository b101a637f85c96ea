import { randomBytes } from "node:crypto";
import { chmod, cp, lstat, mkdir, readdir, readFile, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve, sep } from "node:path";
import { firstLink } from "./links.js";
import { SKILL_FILE_MISSING, type SkillEntry, type SkillImportReport, type SkillLibrary, type UploadedFile } from "../../application/vault/vault-ports.js";
import { ImportPathInvalid, UploadPathInvalid } from "../../domain/vault-errors.js";
import { privatizeTree } from "../system/private-files.js";
import { isErrno, unreadable, unwritable } from "./fs-errors.js";
import { parseSkillHeader } from "./skill-frontmatter.js";

const SKILL_FILE = "SKILL.md";
const MAX_SKILL_BYTES = 1024 * 1024;
const NOT_COPIED = new Set([".git", "node_modules"]);

/**
 * `<data dir>/skills` is the daemon's own folder, like the data dir: made 0700, and set back to
 * 0700 if an older version left it 0755 (a link in its place is left alone, never chmodded through).
 */
async function ensureOwnDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const st = await lstat(dir);
  if (st.isDirectory() && (st.mode & 0o777) !== 0o700) await chmod(dir, 0o700);
}

/** Skills as folders under one root (<data dir>/skills), each with a SKILL.md. */
export class SkillFolderLibrary implements SkillLibrary {
  constructor(private readonly root: string) {}

  async list(): Promise<SkillEntry[]> {
    await ensureOwnDir(this.root);
    const names = (await readdir(this.root)).filter((n) => !n.startsWith(".")).sort();
    const entries: SkillEntry[] = [];
    for (const folder of names) {
      const dir = join(this.root, folder);
      if (!(await isDirectory(dir))) continue;
      entries.push({ folder, ...(await this.inspect(dir)) });
    }
    return entries;
  }

  async read(folder: string): Promise<string | null> {
    if (!isFolderName(folder)) return null;
    return readSkillFile(join(this.root, folder));
  }

  async importFrom(path: string, overwrite: boolean): Promise<SkillImportReport> {
    if (!(await isDirectory(resolve(path)))) throw new ImportPathInvalid(path, "not a folder (a skill folder holds SKILL.md)");
    // The path the owner named may itself be a link (a synced folder); what lies inside may not.
    const source = await realpath(resolve(path));
    const report: { imported: SkillEntry[]; skipped: { folder: string; problem: string }[] } = { imported: [], skipped: [] };
    // The starting folder must be readable (the owner's mistake to hear about); anything inside
    // that is not is skipped with its reason, never a failed import.
    const candidates = await (async () => ((await readSkillFile(source)) !== null ? [source] : subfolders(source, report.skipped)))().catch(
      (err: unknown) => {
        if (isErrno(err)) throw new ImportPathInvalid(path, unreadable(err));
        throw err;
      },
    );
    await ensureOwnDir(this.root);
    const rootReal = await realpath(this.root); // compared with the real source path below
    for (const dir of candidates) {
      // A copied link keeps pointing outside the library: change its target and what agents load
      // changes with it. A skill holding one is not imported, and the report names the link.
      const link = await firstLink(dir, NOT_COPIED).catch(() => null);
      if (link) {
        const what = link === "." ? "is a symbolic link" : `holds a symbolic link (${link})`;
        report.skipped.push({ folder: basename(dir), problem: `${what}; links are not imported` });
        continue;
      }
      let found: Omit<SkillEntry, "folder">;
      try {
        found = await this.inspect(dir);
      } catch (err) {
        if (!isErrno(err)) throw err;
        report.skipped.push({ folder: basename(dir), problem: `SKILL.md cannot be read: ${unreadable(err)}` });
        continue;
      }
      if (found.problem || !found.name) {
        report.skipped.push({ folder: basename(dir), problem: found.problem ?? "no name" });
        continue;
      }
      // The folder takes the skill's name, so the catalogue and the disk agree.
      const target = join(this.root, found.name);
      if (join(rootReal, found.name) === dir) {
        report.skipped.push({ folder: basename(dir), problem: "already in the library" });
        continue;
      }
      const exists = await isDirectory(target);
      if (exists && !overwrite) {
        report.skipped.push({ folder: basename(dir), problem: `a skill named '${found.name}' already exists (import with overwrite to replace it)` });
        continue;
      }
      // Copy beside the library, then swap in: a half-copied skill never shows in the catalogue.
      const staging = join(this.root, `.import-${randomBytes(6).toString("hex")}`);
      try {
        await cp(dir, staging, { recursive: true, filter: (src) => !NOT_COPIED.has(basename(src)) });
      } catch (err) {
        await rm(staging, { recursive: true, force: true });
        if (!isErrno(err)) throw err;
        report.skipped.push({ folder: basename(dir), problem: `could not be copied: ${unreadable(err)}${err.path ? ` (${basename(err.path)})` : ""}` });
        continue;
      }
      // The copy is the daemon's own: 0600 files, 0700 folders, whatever the source's modes were.
      privatizeTree(staging);
      if (exists) await rm(target, { recursive: true, force: true });
      const taken = await swapIn(staging, target, found.name);
      if (taken) {
        report.skipped.push({ folder: basename(dir), problem: taken });
        continue;
      }
      report.imported.push({ folder: found.name, ...found });
    }
    return report;
  }

  async importUploaded(files: readonly UploadedFile[], overwrite: boolean): Promise<SkillImportReport> {
    await ensureOwnDir(this.root);
    // The upload lands in a hidden folder beside the library (list() skips dot-folders), then
    // goes through the same import as a folder on disk.
    const staging = join(this.root, `.upload-${randomBytes(6).toString("hex")}`);
    try {
      for (const f of files) await writeUploaded(staging, f);
      const report = await this.importFrom(await uploadRoot(staging), overwrite);
      const named = (folder: string) => (folder.startsWith(".upload-") ? "upload" : folder);
      return { imported: report.imported, skipped: report.skipped.map((s) => ({ ...s, folder: named(s.folder) })) };
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }

  async create(name: string, description: string, body: string): Promise<boolean> {
    await ensureOwnDir(this.root);
    const target = join(this.root, name);
    if (!isFolderName(name) || (await exists(target))) return false;
    const { stringify } = await import("yaml"); // loaded on first use (issue 16)
    const text = `---\n${stringify({ name, description }).trimEnd()}\n---\n\n${body.trimEnd()}\n`;
    // Written beside the library, then swapped in: the catalogue never sees a half-written skill.
    const staging = join(this.root, `.new-${randomBytes(6).toString("hex")}`);
    await mkdir(staging, { mode: 0o700 });
    try {
      await writeFile(join(staging, SKILL_FILE), text, { mode: 0o600 });
      if (await exists(target)) return false;
      await rename(staging, target);
      return true;
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }

  async remove(folder: string): Promise<boolean> {
    const dir = join(this.root, folder);
    if (!isFolderName(folder) || !(await isDirectory(dir))) return false;
    await rm(dir, { recursive: true, force: true });
    return true;
  }

  private async inspect(dir: string): Promise<Omit<SkillEntry, "folder">> {
    const text = await readSkillFile(dir);
    if (text === null) return { name: null, description: null, problem: SKILL_FILE_MISSING };
    if (text.length > MAX_SKILL_BYTES) return { name: null, description: null, problem: "SKILL.md is larger than 1 MB" };
    const header = await parseSkillHeader(text);
    return "problem" in header ? { name: null, description: null, problem: header.problem } : { ...header, problem: null };
  }
}

/**
 * Writes one uploaded file under the staging folder. The protocol already refused `..`, absolute
 * paths, over-long names and a path that is both a file and a folder; whatever the file system
 * still refuses is the upload's path problem (422 UPLOAD_PATH_INVALID), never a 500.
 */
async function writeUploaded(staging: string, f: UploadedFile): Promise<void> {
  const target = resolve(staging, f.path);
  // The last word on where a file may land.
  if (!target.startsWith(staging + sep)) throw new ImportPathInvalid(f.path, "the path leaves the upload");
  try {
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, f.bytes, { mode: 0o600 });
  } catch (err) {
    if (isErrno(err)) throw new UploadPathInvalid(f.path, unwritable(err));
    throw err;
  }
}

/**
 * Where an upload's skills start: a picked folder of skill folders arrives as `skills/a/…`,
 * `skills/b/…`, so a lone folder without SKILL.md is stepped into.
 */
async function uploadRoot(staging: string): Promise<string> {
  let dir = staging;
  for (;;) {
    if ((await readSkillFile(dir)) !== null) return dir;
    const names = (await readdir(dir)).filter((n) => !n.startsWith("."));
    const only = names.length === 1 ? join(dir, names[0]!) : null;
    if (!only || !(await isDirectory(only)) || (await readSkillFile(only)) !== null) return dir;
    dir = only;
  }
}

/**
 * Moves a staged skill into place. Something else there (a file by that name, or a folder another
 * import swapped in meanwhile) is the owner's to sort out, said in words; the staging goes.
 */
async function swapIn(staging: string, target: string, name: string): Promise<string | null> {
  try {
    await rename(staging, target);
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOTDIR" && code !== "EEXIST" && code !== "ENOTEMPTY" && code !== "EISDIR") throw err;
    await rm(staging, { recursive: true, force: true });
    return code === "ENOTDIR" ? `a file named '${name}' is in the library's way` : `a skill named '${name}' already exists (import with overwrite to replace it)`;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}

async function readSkillFile(dir: string): Promise<string | null> {
  try {
    return await readFile(join(dir, SKILL_FILE), "utf8");
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
}

async function subfolders(dir: string, skipped: { folder: string; problem: string }[]): Promise<string[]> {
  const out: string[] = [];
  for (const name of (await readdir(dir)).filter((n) => !n.startsWith(".")).sort()) {
    try {
      if (await isDirectory(join(dir, name))) out.push(join(dir, name));
    } catch (err) {
      if (!isErrno(err)) throw err;
      skipped.push({ folder: name, problem: unreadable(err) });
    }
  }
  return out;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

function isFolderName(folder: string): boolean {
  return folder.length > 0 && folder === basename(folder) && folder !== "." && folder !== ".." && !folder.startsWith(".");
}
