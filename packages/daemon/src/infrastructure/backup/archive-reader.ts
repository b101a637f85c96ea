import { createReadStream } from "node:fs";
import { mkdir, open, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { createGunzip } from "node:zlib";
import { BLOCK, decodeHeader, paddingFor, type TarHeader } from "./tar-format.js";

/** Reads exact byte counts from a stream of chunks. */
class Bytes {
  private buffered: Buffer[] = [];
  private length = 0;
  constructor(private readonly source: AsyncIterator<Buffer>) {}

  private async fill(n: number): Promise<boolean> {
    while (this.length < n) {
      const next = await this.source.next();
      if (next.done) return false;
      this.buffered.push(next.value);
      this.length += next.value.length;
    }
    return true;
  }

  /** Exactly n bytes, or null at the end of the stream before any of them. */
  async take(n: number): Promise<Buffer | null> {
    if (!(await this.fill(n))) {
      if (this.length === 0) return null;
      throw new Error("the archive ends in the middle of an entry (it is truncated)");
    }
    const all = Buffer.concat(this.buffered);
    this.buffered = all.length > n ? [all.subarray(n)] : [];
    this.length = all.length - n;
    return all.subarray(0, n);
  }

  /** n bytes handed to `sink` as they come (a large file never sits in memory). */
  async pass(n: number, sink: (chunk: Buffer) => Promise<void>): Promise<void> {
    let left = n;
    while (left > 0) {
      if (this.length === 0 && !(await this.fill(1))) throw new Error("the archive ends in the middle of an entry (it is truncated)");
      const chunk = this.buffered.shift()!;
      const use = chunk.subarray(0, Math.min(left, chunk.length));
      if (use.length < chunk.length) this.buffered.unshift(chunk.subarray(use.length));
      this.length -= use.length;
      left -= use.length;
      await sink(use);
    }
  }
}

export interface ArchiveEntryOut {
  readonly name: string;
  readonly type: "file" | "dir";
  readonly size: number;
}

/**
 * Walks a gzipped tar: each file's bytes go to `onFile`'s sink (or are skipped when it returns
 * null); `stopAfter` ends the walk early (the manifest is the first entry). Throws on a file
 * that is not gzip, a damaged header or a truncated archive.
 */
export async function walkArchive(
  path: string,
  onEntry: (entry: ArchiveEntryOut) => Promise<((chunk: Buffer) => Promise<void>) | null> | ((chunk: Buffer) => Promise<void>) | null,
  stopAfter?: (entry: ArchiveEntryOut) => boolean,
): Promise<void> {
  const source = createReadStream(path);
  const stream = source.pipe(createGunzip());
  // pipe() does not carry a read error (EACCES, EIO) forward: without this the walk would wait forever.
  source.on("error", (err) => stream.destroy(err));
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const bytes = new Bytes(iterator);
  let longName: string | null = null;
  try {
    for (;;) {
      const block = await bytes.take(BLOCK);
      if (!block) throw new Error("the archive has no end marker (it is truncated)");
      const header: TarHeader | null = decodeHeader(block);
      if (!header) return;
      if (header.type === "longname") {
        const raw = await bytes.take(header.size + paddingFor(header.size));
        if (!raw) throw new Error("the archive is truncated");
        longName = raw.subarray(0, header.size).toString("utf8").replace(/\0+$/, "");
        continue;
      }
      const entry: ArchiveEntryOut = { name: (longName ?? header.name).replace(/\/+$/, ""), type: header.type, size: header.type === "dir" ? 0 : header.size };
      longName = null;
      const sink = await onEntry(entry);
      const size = entry.size + paddingFor(entry.size);
      let seen = 0;
      await bytes.pass(size, async (chunk) => {
        const body = chunk.subarray(0, Math.max(0, Math.min(chunk.length, entry.size - seen)));
        seen += chunk.length;
        if (sink && body.length) await sink(body);
      });
      if (stopAfter?.(entry)) return;
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "Z_DATA_ERROR" || code === "Z_BUF_ERROR") throw new Error("it is not a gzip file, or its compressed data is damaged");
    throw err;
  } finally {
    // Both ends: a walk stopped early (after the manifest) must not leave the file open.
    stream.destroy();
    source.destroy();
  }
}

/** A name inside the archive that stays inside the folder it is extracted to. */
export function safeEntryName(name: string): boolean {
  if (!name || name.startsWith("/") || name.includes("\\") || name.includes("\0")) return false;
  return name.split("/").every((part) => part !== "" && part !== "." && part !== "..");
}

/**
 * Extracts every entry `allow` accepts into `dir` (files 0600, folders 0700); a name that could
 * leave `dir` or that `allow` refuses throws. Returns the names written.
 */
export async function extractArchive(path: string, dir: string, allow: (entry: ArchiveEntryOut) => boolean): Promise<string[]> {
  const names: string[] = [];
  let open_: FileHandle | null = null;
  const finish = async () => {
    const handle = open_;
    open_ = null;
    if (!handle) return;
    await handle.sync();
    await handle.close();
  };
  try {
    await walkArchive(path, async (entry) => {
      await finish();
      if (!safeEntryName(entry.name) || !allow(entry)) throw new Error(`it holds "${entry.name.slice(0, 200)}", which does not belong in a Coffer backup`);
      names.push(entry.name);
      const target = join(dir, entry.name);
      if (entry.type === "dir") {
        await mkdir(target, { recursive: true, mode: 0o700 });
        return null;
      }
      await mkdir(join(target, ".."), { recursive: true, mode: 0o700 });
      const handle = await open(target, "wx", 0o600);
      open_ = handle;
      return async (chunk: Buffer) => {
        await handle.write(chunk);
      };
    });
    await finish();
  } finally {
    // A damaged archive stops mid-file: the half-written file is closed (the caller removes the folder).
    await (open_ as FileHandle | null)?.close().catch(() => undefined);
  }
  return names;
}
