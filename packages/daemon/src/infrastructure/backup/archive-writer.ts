import { createReadStream, createWriteStream } from "node:fs";
import { open } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { encodeHeader, END_OF_ARCHIVE, pad, paddingFor } from "./tar-format.js";

/** One entry of a backup archive: a folder, bytes in memory, or a file read as it is written. */
export type ArchiveEntry =
  | { readonly name: string; readonly type: "dir"; readonly mode: number; readonly mtime: number }
  | { readonly name: string; readonly type: "file"; readonly mode: number; readonly mtime: number; readonly data: Buffer }
  | { readonly name: string; readonly type: "file"; readonly mode: number; readonly mtime: number; readonly file: string; readonly size: number };

/**
 * Writes a gzipped tar (`tar xzf` reads it) to `path`, which must not exist: created 0600,
 * exclusively, streamed (a large database never sits in memory), fsynced before it returns.
 * The caller writes to a temporary name and renames it into place.
 */
export async function writeArchive(path: string, entries: readonly ArchiveEntry[]): Promise<void> {
  await pipeline(Readable.from(blocks(entries)), createGzip({ level: 6 }), createWriteStream(path, { flags: "wx", mode: 0o600 }));
  // On disk before it is linked into place: a crash never leaves a named, half-written backup.
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function* blocks(entries: readonly ArchiveEntry[]): AsyncGenerator<Buffer> {
  for (const e of entries) {
    if (e.type === "dir") {
      yield encodeHeader({ name: e.name, type: "dir", mode: e.mode, size: 0, mtime: e.mtime });
    } else if ("data" in e) {
      yield encodeHeader({ name: e.name, type: "file", mode: e.mode, size: e.data.length, mtime: e.mtime });
      yield pad(e.data);
    } else {
      yield encodeHeader({ name: e.name, type: "file", mode: e.mode, size: e.size, mtime: e.mtime });
      let written = 0;
      for await (const chunk of createReadStream(e.file)) {
        const buf = chunk as Buffer;
        // A file that grew while it was read (a skill being edited) is cut at the size in its header.
        const take = Math.min(buf.length, e.size - written);
        if (take > 0) yield take === buf.length ? buf : buf.subarray(0, take);
        written += take;
      }
      // …and one that shrank is padded with zeros, so the archive stays well-formed.
      if (written < e.size) yield Buffer.alloc(e.size - written);
      const rest = paddingFor(e.size);
      if (rest) yield Buffer.alloc(rest);
    }
  }
  yield END_OF_ARCHIVE;
}
