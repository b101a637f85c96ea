import * as fs from "node:fs";
import { join } from "node:path";
import type { AgentFileCopies } from "../../application/attachments/attachment-ports.js";
import { ensurePrivateDir } from "./private-files.js";

/** Ids are ours (uuid-like); anything else never becomes a path segment. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The file's name as the owner gave it, made safe to be one path segment: no separators, no
 * control characters, no leading dot (hidden, or `..`), at most 120 characters.
 */
export function safeFileName(name: string): string {
  const cleaned = name
    .replace(/[\u0000-\u001f\u007f/\\]/g, "_")
    .replace(/^\.+/, "")
    .trim()
    .slice(0, 120);
  return cleaned === "" ? "file" : cleaned;
}

/**
 * <root>/<conversation id>/<attachment id>/<safe name>: folders 0700, files 0400. A copy, not a
 * hard link: a link shares the inode, so making it 0400 would change the private store's file
 * too. The copy is made once (a later turn naming the same file finds it in place).
 */
export class FileAgentFileCopies implements AgentFileCopies {
  constructor(private readonly root: string) {}

  place(conversationId: string, attachmentId: string, name: string, source: string): string {
    if (!SAFE_ID.test(conversationId) || !SAFE_ID.test(attachmentId)) throw new Error("unsafe id for an agent file");
    const dir = join(this.root, conversationId, attachmentId);
    const path = join(dir, safeFileName(name));
    ensurePrivateDir(this.root);
    ensurePrivateDir(join(this.root, conversationId));
    ensurePrivateDir(dir);
    const seen = fs.lstatSync(path, { throwIfNoEntry: false });
    if (seen?.isFile()) return path;
    if (seen) fs.rmSync(path, { recursive: true, force: true });
    const temp = join(dir, `.copy.${process.pid}.tmp`);
    fs.rmSync(temp, { force: true });
    fs.copyFileSync(source, temp, fs.constants.COPYFILE_EXCL);
    fs.chmodSync(temp, 0o400);
    fs.renameSync(temp, path);
    return path;
  }

  removeConversation(conversationId: string): void {
    if (!SAFE_ID.test(conversationId)) return;
    fs.rmSync(join(this.root, conversationId), { recursive: true, force: true });
  }

  sweepOrphans(alive: (conversationId: string) => boolean): number {
    if (!fs.existsSync(this.root)) return 0;
    let gone = 0;
    for (const entry of fs.readdirSync(this.root, { withFileTypes: true })) {
      if (!entry.isDirectory() || alive(entry.name)) continue;
      fs.rmSync(join(this.root, entry.name), { recursive: true, force: true });
      gone += 1;
    }
    return gone;
  }
}
