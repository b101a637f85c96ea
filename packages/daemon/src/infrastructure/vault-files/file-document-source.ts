import type { Dirent } from "node:fs";
import { open, readdir, stat } from "node:fs/promises";
import { basename, join, relative, resolve, sep } from "node:path";
import type { DocumentSource, SourceFile } from "../../application/vault/vault-ports.js";
import { ImportPathInvalid } from "../../domain/vault-errors.js";
import { decodeDocument, MAX_DOCUMENT_BYTES, SKIPPED_FOLDERS, unsupportedReason } from "./document-formats.js";
import { isErrno, unreadable } from "./fs-errors.js";

const MAX_FILES = 10_000;

/** Lists a folder; a seam only so a test can fail it as root, where chmod 000 does not. */
export type ReadDir = (dir: string) => Promise<Dirent[]>;
const readDirEntries: ReadDir = (dir) => readdir(dir, { withFileTypes: true });

/**
 * Documents read from the owner's files and folders (UTF-8 text only). Anything in a folder
 * that cannot be read (a subfolder without permission, a broken link, a pipe, a file that
 * vanished) is skipped with its reason; only an unreadable starting path fails the import.
 */
export class FileDocumentSource implements DocumentSource {
  constructor(private readonly readDir: ReadDir = readDirEntries) {}

  async scan(path: string): Promise<{ files: SourceFile[]; skipped: { filename: string; reason: string }[] }> {
    const root = resolve(path);
    const info = await stat(root).catch((err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT" || err.code === "ENOTDIR") throw new ImportPathInvalid(path, "no such file or folder");
      if (err.code === "EACCES") throw new ImportPathInvalid(path, "permission denied");
      throw err;
    });
    const files: SourceFile[] = [];
    const skipped: { filename: string; reason: string }[] = [];
    const consider = (file: string, filename: string) => {
      const reason = unsupportedReason(file);
      if (reason) skipped.push({ filename, reason });
      else files.push({ path: file, filename });
    };
    if (info.isFile()) consider(root, basename(root));
    else if (info.isDirectory()) {
      const rel = (full: string) => relative(root, full).split(sep).join("/");
      // The starting folder itself must be readable: that is the owner's mistake to hear about.
      const top = await this.readDir(root).catch((err: NodeJS.ErrnoException) => {
        throw new ImportPathInvalid(path, unreadable(err));
      });
      for await (const entry of this.walk(root, top)) {
        if ("file" in entry) consider(entry.file, rel(entry.file));
        else skipped.push({ filename: `${rel(entry.path)}${entry.folder ? "/" : ""}`, reason: entry.reason });
        if (files.length + skipped.length > MAX_FILES) throw new ImportPathInvalid(path, `more than ${MAX_FILES} files; import a smaller folder`);
      }
    } else throw new ImportPathInvalid(path, "not a regular file or folder");
    return { files, skipped };
  }

  async read(file: SourceFile): Promise<{ text: string } | { skip: string }> {
    let bytes: Buffer;
    try {
      const info = await stat(file.path);
      if (!info.isFile()) return { skip: "not a regular file" };
      if (info.size > MAX_DOCUMENT_BYTES) return { skip: `larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB` };
      const handle = await open(file.path, "r");
      try {
        bytes = await handle.readFile();
      } finally {
        await handle.close();
      }
    } catch (err) {
      if (isErrno(err)) return { skip: unreadable(err) };
      throw err;
    }
    return decodeDocument(bytes);
  }

  /** Every file under a folder, sorted, leaving out hidden entries and tooling folders; what cannot be read is reported. */
  private async *walk(dir: string, listed: Dirent[]): AsyncGenerator<{ file: string } | { path: string; reason: string; folder?: boolean }> {
    const entries = [...listed].sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (e.name.startsWith(".")) continue;
      const full = join(dir, e.name);
      if (e.isDirectory()) {
        if (SKIPPED_FOLDERS.has(e.name)) continue;
        let inner: Dirent[];
        try {
          inner = await this.readDir(full);
        } catch (err) {
          if (!isErrno(err)) throw err;
          yield { path: full, reason: `folder skipped: ${unreadable(err)}`, folder: true };
          continue;
        }
        yield* this.walk(full, inner);
      } else if (e.isFile()) yield { file: full };
      else if (e.isSymbolicLink()) {
        // A link to a file is read through; a link to a folder is not followed (it could loop).
        const target = await stat(full).catch((err: unknown) => (isErrno(err) ? err : Promise.reject(err)));
        if (!("isFile" in target)) yield { path: full, reason: target.code === "ENOENT" ? "broken symbolic link" : unreadable(target) };
        else if (target.isFile()) yield { file: full };
        else yield { path: full, reason: target.isDirectory() ? "symbolic link to a folder (not followed)" : "not a regular file" };
      } else yield { path: full, reason: "not a regular file (a pipe, socket or device)" };
    }
  }
}
