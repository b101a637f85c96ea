import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * The data dir's private files (token, daemon.json, credentials.key): never read or written
 * through a symbolic link, always owned by this user, mode 0600, and replaced atomically so a
 * crash or a full disk never leaves a half-written or empty file (docs/decisions.md, Storage).
 */

/** The few fs calls an atomic write makes; tests inject a failing one (a full disk cannot be made here). */
export interface PrivateFileIo {
  openSync: typeof fs.openSync;
  writeSync: (fd: number, data: Buffer) => number;
  fsyncSync: typeof fs.fsyncSync;
  closeSync: typeof fs.closeSync;
  renameSync: typeof fs.renameSync;
  linkSync: typeof fs.linkSync;
  unlinkSync: typeof fs.unlinkSync;
}

export const nodeIo: PrivateFileIo = {
  openSync: fs.openSync,
  writeSync: (fd, data) => fs.writeSync(fd, data),
  fsyncSync: fs.fsyncSync,
  closeSync: fs.closeSync,
  renameSync: fs.renameSync,
  linkSync: fs.linkSync,
  unlinkSync: fs.unlinkSync,
};

export type UnsafeReason = "symlink" | "foreign_owner" | "not_a_file";

/** A private file that is a link, someone else's, or not a regular file: refused, never touched. */
export class UnsafePrivateFile extends Error {
  readonly code = "DATA_DIR_UNSAFE";
  constructor(
    readonly path: string,
    readonly reason: UnsafeReason,
  ) {
    super(`${path} ${REASON_TEXT[reason]}; Coffer refuses to use it (remove it and start again)`);
  }

  /** The problem alone, e.g. "it is a symbolic link". */
  get problem(): string {
    return `it ${REASON_TEXT[this.reason]}`;
  }
}

const REASON_TEXT: Record<UnsafeReason, string> = {
  symlink: "is a symbolic link",
  foreign_owner: "belongs to another user",
  not_a_file: "is not a regular file",
};

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_WRONLY, O_CREAT, O_EXCL } = fs.constants;
const currentUid = () => (typeof process.getuid === "function" ? process.getuid() : null);

/** Creates the data dir if needed and forces it to 0700, also when it already existed. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.statSync(dir);
  const uid = currentUid();
  if (uid !== null && st.uid !== uid) throw new UnsafePrivateFile(dir, "foreign_owner");
  if ((st.mode & 0o777) !== 0o700) fs.chmodSync(dir, 0o700);
}

/**
 * Reads a private file without following a link (O_NOFOLLOW), checks it is this user's regular
 * file and (unless `tighten: false`) sets it to 0600 through the open descriptor. `null` when it does not exist.
 */
export function readPrivateFile(path: string, options: { readonly tighten?: boolean } = {}): Buffer | null {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO planted under the name must not hang the daemon's start.
    fd = fs.openSync(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return null;
    if (code === "ELOOP") throw new UnsafePrivateFile(path, "symlink");
    throw err;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new UnsafePrivateFile(path, "not_a_file");
    const uid = currentUid();
    if (uid !== null && st.uid !== uid) throw new UnsafePrivateFile(path, "foreign_owner");
    if (options.tighten !== false && (st.mode & 0o777) !== 0o600) fs.fchmodSync(fd, 0o600);
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Refuses a path that exists as a link or as someone else's file (a write would replace it). */
export function assertReplaceable(path: string): void {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  if (st.isSymbolicLink()) throw new UnsafePrivateFile(path, "symlink");
  if (!st.isFile()) throw new UnsafePrivateFile(path, "not_a_file");
  const uid = currentUid();
  if (uid !== null && st.uid !== uid) throw new UnsafePrivateFile(path, "foreign_owner");
}

export interface AtomicWriteOptions {
  /** Fail with EEXIST instead of replacing a file that is already there (first writer wins). */
  readonly exclusive?: boolean;
  readonly io?: PrivateFileIo;
}

/**
 * Writes `data` to a 0600 temp file beside `path`, fsyncs it, moves it into place (rename, or
 * link when `exclusive`) and fsyncs the dir. Any failure (ENOSPC included) removes the temp
 * file and leaves `path` as it was: never empty, never half-written.
 */
export function writePrivateFileAtomic(path: string, data: string | Buffer, options: AtomicWriteOptions = {}): void {
  const io = options.io ?? nodeIo;
  if (!options.exclusive) assertReplaceable(path);
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  let created = false;
  try {
    const fd = io.openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
    created = true;
    try {
      let written = 0;
      while (written < bytes.length) written += io.writeSync(fd, bytes.subarray(written));
      io.fsyncSync(fd);
    } finally {
      io.closeSync(fd);
    }
    if (options.exclusive) {
      io.linkSync(temp, path);
      io.unlinkSync(temp);
    } else {
      io.renameSync(temp, path);
    }
    created = false;
  } finally {
    if (created) {
      try {
        io.unlinkSync(temp);
      } catch {
        // Already gone; nothing else to undo.
      }
    }
  }
  syncDir(dir);
}

/** Makes a rename durable: fsync the directory entry (best effort where the OS refuses it). */
function syncDir(dir: string): void {
  let fd: number | null = null;
  try {
    fd = fs.openSync(dir, O_RDONLY);
    fs.fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a directory; the data itself is already synced.
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/** Removes a private file only if it is ours and not a link (never a link's target). */
export function removePrivateFile(path: string): void {
  try {
    assertReplaceable(path);
    fs.rmSync(path, { force: true });
  } catch (err) {
    if (err instanceof UnsafePrivateFile) return;
    throw err;
  }
}

/** Tightens files (0600) and folders (0700) under a tree the daemon just wrote (links untouched). */
export function privatizeTree(root: string): void {
  const st = fs.lstatSync(root);
  if (st.isSymbolicLink()) return;
  if (st.isDirectory()) {
    fs.chmodSync(root, 0o700);
    for (const name of fs.readdirSync(root)) privatizeTree(join(root, name));
  } else if (st.isFile()) {
    fs.chmodSync(root, 0o600);
  }
}
