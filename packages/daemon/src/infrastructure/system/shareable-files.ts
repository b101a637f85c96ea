import { createReadStream, realpathSync, statSync } from "node:fs";
import { basename, isAbsolute, relative, resolve } from "node:path";
import type { ShareCheck, ShareRoots, ShareableFiles } from "../../application/attachments/share-file-ports.js";

/** Whether `path` is `root` itself or below it (both already absolute and normalised). */
function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** A root's real path; a root that does not exist confines nothing. */
function realRoot(root: string | undefined): string | null {
  if (!root) return null;
  try {
    return realpathSync(root);
  } catch {
    return null;
  }
}

/**
 * coffer__share_file's gate (issue 25, "Out"): the path is resolved against the conversation's
 * working directory and realpathed, so a symbolic link cannot reach past the workspace; the data
 * dir (token, database, other conversations' files) is refused even inside it; only a regular
 * file under the attachment cap passes — a device or FIFO would hang or stream forever.
 */
export class FsShareableFiles implements ShareableFiles {
  check(path: string, roots: ShareRoots): ShareCheck {
    const lexical = resolve(roots.workspace, path);
    let real: string;
    try {
      real = realpathSync(lexical);
    } catch {
      return { ok: false, reason: "not_found" };
    }
    const allowed = [realRoot(roots.workspace), realRoot(roots.agentFiles)].filter((r): r is string => r !== null);
    const dataDir = realRoot(roots.dataDir);
    if (dataDir && within(dataDir, real)) return { ok: false, reason: "data_dir" };
    if (!allowed.some((root) => within(root, real))) {
      const lexicalInside = [resolve(roots.workspace), roots.agentFiles ? resolve(roots.agentFiles) : null]
        .some((root) => root !== null && within(root, lexical));
      return { ok: false, reason: lexicalInside ? "symlink_escape" : "outside_workspace" };
    }
    const stat = statSync(real);
    if (!stat.isFile()) return { ok: false, reason: "not_a_file" };
    if (stat.size > roots.maxBytes) return { ok: false, reason: "too_large" };
    return { ok: true, realPath: real, name: basename(real), size: stat.size };
  }

  read(realPath: string): AsyncIterable<Uint8Array> {
    return createReadStream(realPath);
  }
}
