import { open, readdir, stat } from "node:fs/promises";
import { basename, join, relative, resolve, sep } from "node:path";
import type { DocumentSource, SourceFile } from "../../application/vault/vault-ports.js";
import { ImportPathInvalid } from "../../domain/vault-errors.js";
import { SKIPPED_FOLDERS, unsupportedReason } from "./document-formats.js";

const MAX_FILE_BYTES = 2 * 1024 * 1024;
const MAX_FILES = 10_000;

/** Documents read from the owner's files and folders (UTF-8 text only). */
export class FileDocumentSource implements DocumentSource {
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
      for await (const file of walk(root)) {
        consider(file, relative(root, file).split(sep).join("/"));
        if (files.length + skipped.length > MAX_FILES) throw new ImportPathInvalid(path, `more than ${MAX_FILES} files; import a smaller folder`);
      }
    } else throw new ImportPathInvalid(path, "not a regular file or folder");
    return { files, skipped };
  }

  async read(file: SourceFile): Promise<{ text: string } | { skip: string }> {
    const info = await stat(file.path);
    if (info.size > MAX_FILE_BYTES) return { skip: `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB` };
    const handle = await open(file.path, "r");
    let bytes: Buffer;
    try {
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
    if (bytes.subarray(0, 8192).includes(0)) return { skip: "binary file" };
    try {
      return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
    } catch (err) {
      if (err instanceof TypeError) return { skip: "not UTF-8 text" };
      throw err;
    }
  }
}

/** Every file under a folder, sorted, leaving out hidden entries and tooling folders. */
async function* walk(dir: string): AsyncGenerator<string> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    if (e.name.startsWith(".")) continue;
    const full = join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(e.name)) yield* walk(full);
    } else if (e.isFile()) yield full;
  }
}
