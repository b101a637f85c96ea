/**
 * The ustar headers of a backup archive (POSIX tar, readable by `tar xzf`), with GNU long-name
 * entries for paths over 100 bytes. Only what a backup holds: regular files and folders.
 */

export const BLOCK = 512;
const LONG_NAME = "././@LongLink";
/** 11 octal digits: an entry up to 8 GiB. */
export const MAX_ENTRY_BYTES = 8 * 1024 ** 3 - 1;

export type EntryType = "file" | "dir" | "longname";

export interface TarHeader {
  readonly name: string;
  readonly type: EntryType;
  readonly mode: number;
  readonly size: number;
  readonly mtime: number;
}

const TYPE_FLAG: Record<EntryType, string> = { file: "0", dir: "5", longname: "L" };

function octal(buf: Buffer, value: number, offset: number, length: number): void {
  buf.write(value.toString(8).padStart(length - 1, "0") + "\0", offset, length, "ascii");
}

/** The header block(s) of one entry: a long name first gets its own GNU `L` entry. */
export function encodeHeader(entry: Omit<TarHeader, "type"> & { type: "file" | "dir" }): Buffer {
  const name = entry.type === "dir" && !entry.name.endsWith("/") ? `${entry.name}/` : entry.name;
  const nameBytes = Buffer.from(name, "utf8");
  if (nameBytes.length > 100) {
    const long = Buffer.concat([nameBytes, Buffer.from([0])]);
    return Buffer.concat([block(LONG_NAME, "longname", 0o644, long.length, 0), pad(long), block(name.slice(0, 99), entry.type, entry.mode, entry.size, entry.mtime)]);
  }
  return block(name, entry.type, entry.mode, entry.size, entry.mtime);
}

function block(name: string, type: EntryType, mode: number, size: number, mtimeMs: number): Buffer {
  if (size > MAX_ENTRY_BYTES) throw new Error(`${name} is over 8 GiB, more than a backup entry can hold`);
  const h = Buffer.alloc(BLOCK);
  Buffer.from(name, "utf8").copy(h, 0, 0, 100);
  octal(h, mode & 0o7777, 100, 8);
  octal(h, 0, 108, 8);
  octal(h, 0, 116, 8);
  octal(h, size, 124, 12);
  octal(h, Math.floor(mtimeMs / 1000), 136, 12);
  h.write("        ", 148, 8, "ascii");
  h.write(TYPE_FLAG[type], 156, 1, "ascii");
  h.write("ustar\0", 257, 6, "ascii");
  h.write("00", 263, 2, "ascii");
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, 8, "ascii");
  return h;
}

/** Zero bytes to the next block boundary after `data`. */
export function pad(data: Buffer): Buffer {
  const rest = data.length % BLOCK;
  return rest === 0 ? data : Buffer.concat([data, Buffer.alloc(BLOCK - rest)]);
}

export function paddingFor(size: number): number {
  const rest = size % BLOCK;
  return rest === 0 ? 0 : BLOCK - rest;
}

/** Two zero blocks end an archive. */
export const END_OF_ARCHIVE = Buffer.alloc(BLOCK * 2);

/** A header block's entry, or null for a zero block (the end); throws on a damaged header. */
export function decodeHeader(h: Buffer): TarHeader | null {
  if (h.every((b) => b === 0)) return null;
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
  if (sum !== readOctal(h, 148, 8)) throw new Error("a header's checksum does not match (the archive is damaged)");
  const flag = String.fromCharCode(h[156]!);
  const type: EntryType | null = flag === "0" || flag === "\0" ? "file" : flag === "5" ? "dir" : flag === "L" ? "longname" : null;
  if (!type) throw new Error(`an entry of type "${flag}" (only files and folders belong in a backup)`);
  const prefix = text(h, 345, 155);
  const name = text(h, 0, 100);
  return { name: prefix ? `${prefix}/${name}` : name, type, mode: readOctal(h, 100, 8), size: readOctal(h, 124, 12), mtime: readOctal(h, 136, 12) * 1000 };
}

function text(h: Buffer, offset: number, length: number): string {
  const raw = h.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString("utf8");
}

function readOctal(h: Buffer, offset: number, length: number): number {
  const s = text(h, offset, length).trim();
  if (!/^[0-7]*$/.test(s)) throw new Error("a header field is not a number (the archive is damaged)");
  return s ? parseInt(s, 8) : 0;
}
