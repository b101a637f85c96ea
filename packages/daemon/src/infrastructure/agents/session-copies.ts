/**
 * Coffer's private copies of the agents' session files (issue 24): one folder per conversation,
 * `<data dir>/agent-sessions/<agent>/<conversation>/`, 0700, holding `session.jsonl` (the CLI's
 * file as it was after the last settled turn) and `meta.json` (which session, where it lived
 * under the CLI's home, its sha256). Bounded: each save replaces the previous copy. Files are
 * 0600 and written atomically (system/private-files.ts), so a crash never leaves half a copy;
 * a copy whose bytes no longer match its sha256 is corrupt and never put back.
 *
 * A transcript holds whatever the agent read or said, credential values included: the copy is
 * scrubbed with the daemon's SecretScrubber (`[credential:<ref>]`, JSON-safe) like everything
 * else Coffer stores, so the data dir never holds a known secret in the clear. The agent resumed
 * from it sees the placeholder where the value was (it can read the value again).
 */
import { createHash, randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { link, mkdir, open, readFile, rename, rm, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { KeptSession, SessionCopies } from "../../application/agent-sessions/session-keeper-ports.js";
import { assertReplaceable, ensurePrivateDir, readPrivateFile } from "../system/private-files.js";

const DATA = "session.jsonl";
const META = "meta.json";
/** Conversation ids and agent keys name folders: nothing that could climb out of the store. */
const SAFE_NAME = /^[A-Za-z0-9_-]{1,128}$/;

interface Meta {
  readonly session_id: string;
  readonly relative: string;
  readonly sha256: string;
  readonly bytes: number;
}

export class FileSessionCopies implements SessionCopies {
  /** One operation at a time per conversation: a save and a put-back never interleave. */
  private readonly queues = new Map<string, Promise<unknown>>();
  /** Conversations deleted in this run: a late save (a process exiting after the delete) must not bring a copy back. */
  private readonly removed = new Set<string>();

  private closed = false;

  constructor(
    private readonly root: string,
    /** Known credential values out (application/secrets); absent in unit rigs. */
    private readonly scrub: (text: string) => string = (text) => text,
  ) {}

  /** The daemon stops: saves under way finish, later ones (a process exiting after) are refused. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.queues.values()].map((q) => q.catch(() => undefined)));
  }

  save(agentKey: string, conversationId: string, kept: KeptSession, source: string): Promise<boolean> {
    return this.serial(agentKey, conversationId, async () => {
      if (this.closed || this.removed.has(`${agentKey}/${conversationId}`)) return false;
      let raw: string;
      try {
        raw = await readFile(source, "utf8");
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
        throw err;
      }
      const bytes = Buffer.from(this.scrub(raw), "utf8");
      const dir = this.dirFor(agentKey, conversationId, true);
      const meta: Meta = { session_id: kept.sessionId, relative: kept.relative, sha256: sha256(bytes), bytes: bytes.length };
      // Data first, then the meta naming it: a crash between the two leaves a copy whose sha no
      // longer matches, which restore() refuses (corrupt) rather than resuming half a session.
      await writeAtomic(join(dir, DATA), bytes);
      await writeAtomic(join(dir, META), Buffer.from(JSON.stringify(meta)));
      return true;
    });
  }

  restore(agentKey: string, conversationId: string, sessionId: string, target: (relative: string) => string | null): Promise<boolean> {
    return this.serial(agentKey, conversationId, async () => {
      const dir = this.dirFor(agentKey, conversationId, false);
      const meta = parseMeta(readPrivateFile(join(dir, META)));
      if (!meta || meta.session_id !== sessionId) return false;
      const bytes = readPrivateFile(join(dir, DATA));
      if (!bytes || bytes.length !== meta.bytes || sha256(bytes) !== meta.sha256) return false;
      const path = target(meta.relative);
      if (!path) return false;
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      try {
        // Exclusive: a file the CLI wrote there meanwhile is newer than our copy and is kept.
        await writeAtomic(path, bytes, true);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
      return true;
    });
  }

  remove(agentKey: string, conversationId: string): Promise<void> {
    this.removed.add(`${agentKey}/${conversationId}`);
    return this.serial(agentKey, conversationId, async () => {
      await rm(this.dirFor(agentKey, conversationId, false), { recursive: true, force: true });
    });
  }

  private dirFor(agentKey: string, conversationId: string, create: boolean): string {
    if (!SAFE_NAME.test(agentKey) || !SAFE_NAME.test(conversationId)) throw new Error(`unsafe session copy name: ${agentKey}/${conversationId}`);
    const dir = join(this.root, agentKey, conversationId);
    if (create) for (const d of [this.root, join(this.root, agentKey), dir]) ensurePrivateDir(d);
    return dir;
  }

  private serial<T>(agentKey: string, conversationId: string, job: () => Promise<T>): Promise<T> {
    const key = `${agentKey}/${conversationId}`;
    const run = (this.queues.get(key) ?? Promise.resolve()).catch(() => undefined).then(job);
    this.queues.set(key, run);
    void run.finally(() => {
      if (this.queues.get(key) === run) this.queues.delete(key);
    }).catch(() => undefined);
    return run;
  }
}

/**
 * system/private-files.ts's atomic write, asynchronous: a long conversation's transcript runs to
 * megabytes, and its write and fsync must not hold the event loop (measured: a 20 MB copy took
 * 116 ms with the synchronous write). A 0600 temp file (O_EXCL, O_NOFOLLOW) beside `path`,
 * synced, then renamed over it — or linked, when `exclusive`, so an existing file wins (EEXIST).
 */
async function writeAtomic(path: string, bytes: Buffer, exclusive = false): Promise<void> {
  if (!exclusive) assertReplaceable(path);
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
  const file = await open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    try {
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    if (exclusive) await link(temp, path);
    else await rename(temp, path);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function parseMeta(raw: Buffer | null): Meta | null {
  if (!raw) return null;
  try {
    const m = JSON.parse(raw.toString("utf8")) as Partial<Meta>;
    if (typeof m.session_id !== "string" || typeof m.relative !== "string" || typeof m.sha256 !== "string" || typeof m.bytes !== "number") return null;
    return m as Meta;
  } catch {
    return null;
  }
}
