import { lstat, readdir } from "node:fs/promises";
import { join, relative } from "node:path";

/**
 * The first symbolic link under `dir` (the folder itself included), as a path relative to it, or
 * null. Folders named in `skip` are not walked (they are not copied either). A folder that
 * cannot be listed throws; the caller reports it like any unreadable path.
 */
export async function firstLink(dir: string, skip: ReadonlySet<string> = new Set()): Promise<string | null> {
  if ((await lstat(dir)).isSymbolicLink()) return ".";
  const walk = async (folder: string): Promise<string | null> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (skip.has(entry.name)) continue;
      const path = join(folder, entry.name);
      if (entry.isSymbolicLink()) return relative(dir, path);
      if (entry.isDirectory()) {
        const found = await walk(path);
        if (found) return found;
      }
    }
    return null;
  };
  return walk(dir);
}
