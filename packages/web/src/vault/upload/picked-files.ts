import { VAULT_ROUTES, type UploadFile } from "@coffer/protocol";

/** A file the owner picked or dropped, with its place inside what was picked (`notes/a.md`). */
export interface PickedFile {
  readonly path: string;
  readonly file: File;
}

/** Upload bodies share one cap (the protocol's); base64 makes each file about 4/3 its size. */
export const UPLOAD_LIMIT_BYTES = VAULT_ROUTES.uploadKnowledge.maxBodyBytes;

/** The body size a set of files will make, near enough to refuse before sending. */
export function uploadBytes(files: readonly PickedFile[]): number {
  return files.reduce((n, f) => n + Math.ceil(f.file.size / 3) * 4 + f.path.length + 40, 64);
}

/** What the import shows as its source: the folder's name, the lone file's, or "N files". */
export function uploadLabel(files: readonly PickedFile[]): string {
  const tops = new Set(files.map((f) => f.path.split("/")[0]));
  if (tops.size === 1) return [...tops][0]!;
  return `${files.length} files`;
}

/** From an <input type=file> (with `webkitdirectory`, each file knows its relative path). */
export function fromFileList(list: FileList | null): PickedFile[] {
  return Array.from(list ?? [], (file) => ({ path: file.webkitRelativePath || file.name, file }));
}

/** From a drop: files and whole folders (walked through the entries API where the browser has it). */
export async function fromDrop(data: DataTransfer): Promise<PickedFile[]> {
  const entries = Array.from(data.items ?? [])
    .map((item) => (item.kind === "file" ? item.webkitGetAsEntry?.() : null))
    .filter((e): e is FileSystemEntry => !!e);
  if (entries.length === 0) return fromFileList(data.files);
  const out: PickedFile[] = [];
  for (const entry of entries) await walk(entry, "", out);
  return out;
}

async function walk(entry: FileSystemEntry, prefix: string, out: PickedFile[]): Promise<void> {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ path, file });
  } else if (entry.isDirectory) {
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    // readEntries hands out a folder in batches: read until it returns none.
    for (;;) {
      const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
      if (batch.length === 0) break;
      for (const child of batch) await walk(child, path, out);
    }
  }
}

/** The upload body's files: each one's bytes in base64. */
export async function toUploadFiles(files: readonly PickedFile[]): Promise<UploadFile[]> {
  return Promise.all(files.map(async (f) => ({ path: f.path, content_base64: base64(new Uint8Array(await f.file.arrayBuffer())) })));
}

function base64(bytes: Uint8Array): string {
  let s = "";
  // In slices: String.fromCharCode with a whole file's bytes would overflow the call stack.
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
