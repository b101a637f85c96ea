import { randomBytes } from "node:crypto";
import { closeSync, existsSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { afterEach, expect, test } from "vitest";
import { restoreBackup } from "../../src/main.js";
import { walkArchive } from "../../src/infrastructure/backup/archive-reader.js";
import { writeArchive, type ArchiveEntry } from "../../src/infrastructure/backup/archive-writer.js";
import { acceptance } from "../support/acceptance.js";
import { makeHome, startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "coffer-backup-checks-"));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function daemon(overrides: Parameters<typeof startTestDaemon>[0] = {}): Promise<TestDaemon> {
  const t = await startTestDaemon(overrides);
  cleanup.push(() => t.close());
  return t;
}

/** A real backup's entries, read back: name → bytes. */
async function entriesOf(file: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  await walkArchive(file, (entry) => {
    if (entry.type === "dir") return null;
    const parts: Buffer[] = [];
    out.set(entry.name, Buffer.alloc(0));
    return async (chunk) => {
      parts.push(chunk);
      out.set(entry.name, Buffer.concat(parts));
    };
  });
  return out;
}

/** Writes an archive holding `entries` (manifest first, as Coffer writes it). */
async function archive(dir: string, name: string, entries: Map<string, Buffer>): Promise<string> {
  const path = join(dir, name);
  const list: ArchiveEntry[] = [...entries].map(([n, data]) => ({ name: n, type: "file", mode: 0o600, mtime: Date.now(), data }));
  await writeArchive(path, list);
  return path;
}

/** The data dir is as it was and no staging folder is left beside it. */
function untouched(home: string, before: string[]): void {
  expect(readdirSync(home).sort()).toEqual(before);
  expect(readdirSync(dirname(home)).filter((n) => n.startsWith(`.${basename(home)}.restoring`))).toEqual([]);
}

acceptance(
  "024-never-lose",
  "restore checks the file first and refuses a damaged, foreign or newer backup, or one whose key does not open its credentials, changing nothing",
  async () => {
    const a = await daemon();
    await a.api.put("/credentials/gh.token", { secret: "ghp-restore-check-0123456789" });
    const good = (await a.api.post("/settings/backups", {})).body.path as string;
    await a.stop();
    const home = a.home;
    const before = readdirSync(home).sort();
    const dir = await scratch();
    const real = await entriesOf(good);

    const refusals: Array<[string, string, RegExp]> = [];
    // Not a backup at all.
    writeFileSync(join(dir, "notes.txt"), "just some text\n");
    refusals.push(["notes.txt", join(dir, "notes.txt"), /not a gzip file/]);
    // A gzipped file that is not Coffer's.
    writeFileSync(join(dir, "other.tar.gz"), gzipSync(Buffer.alloc(2048, 7)));
    refusals.push(["other.tar.gz", join(dir, "other.tar.gz"), /checksum|damaged|Coffer's coffer-backup.json/]);
    // Cut short (a half-copied file).
    const whole = readFileSync(good);
    writeFileSync(join(dir, "cut.tar.gz"), whole.subarray(0, Math.floor(whole.length / 2)));
    refusals.push(["cut.tar.gz", join(dir, "cut.tar.gz"), /truncated|damaged|gzip/]);
    // From a newer Coffer.
    const manifest = JSON.parse(real.get("coffer-backup.json")!.toString("utf8"));
    const newer = new Map(real).set("coffer-backup.json", Buffer.from(JSON.stringify({ ...manifest, schema_version: 999 })));
    refusals.push(["newer", await archive(dir, "newer.tar.gz", newer), /newer Coffer \(schema 999/]);
    // Its database damaged: a page in the middle overwritten.
    const db = Buffer.from(real.get("coffer.db")!);
    const pageSize = db.readUInt16BE(16) === 1 ? 65536 : db.readUInt16BE(16);
    randomBytes(pageSize).copy(db, pageSize * Math.floor(db.length / pageSize / 2));
    refusals.push(["damaged", await archive(dir, "damaged.tar.gz", new Map(real).set("coffer.db", db)), /integrity check/]);
    // A key that does not open its credentials.
    const foreignKey = Buffer.from(`${randomBytes(32).toString("base64")}\n`);
    refusals.push(["foreign key", await archive(dir, "foreign-key.tar.gz", new Map(real).set("credentials.key", foreignKey)), /key does not open/]);
    // A name that would land outside the data dir.
    refusals.push(["escape", await archive(dir, "escape.tar.gz", new Map([["coffer-backup.json", real.get("coffer-backup.json")!], ["../escaped", Buffer.from("x")]])), /does not belong/]);

    for (const [label, file, reason] of refusals) {
      const err = await restoreBackup({ file, home }).then(
        () => null,
        (e: unknown) => e as { code: string; message: string },
      );
      expect(err, label).toMatchObject({ code: "BACKUP_INVALID" });
      expect(err!.message, label).toMatch(reason);
      expect(err!.message, label).toContain("nothing was changed");
      untouched(home, before);
    }
    expect(existsSync(join(dir, "..", "escaped"))).toBe(false);

    // The real one goes through, and the replaced data dir is kept beside it.
    const ok = await restoreBackup({ file: good, home });
    expect(ok.previous).toMatch(new RegExp(`^${home}\\.before-restore-\\d{8}-\\d{6}$`));
    expect(readdirSync(ok.previous!).sort()).toEqual(before.filter((n) => n !== "backups" && n !== "token"));
    expect(readdirSync(home)).toContain("backups");
    cleanup.push(() => rm(ok.previous!, { recursive: true, force: true }));
  },
  60_000,
);

/** Flips the bytes of the memory table's root page (one SQLite does not read while opening); returns the file. */
function damageMemoryTable(home: string): string {
  const file = join(home, "coffer.db");
  const reader = new Database(file, { readonly: true });
  const root = (reader.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'memory_facts'").get() as { rootpage: number }).rootpage;
  const pageSize = reader.pragma("page_size", { simple: true }) as number;
  reader.close();
  expect(root).toBeGreaterThan(1);
  const fd = openSync(file, "r+");
  writeSync(fd, randomBytes(pageSize), 0, pageSize, (root - 1) * pageSize);
  closeSync(fd);
  return file;
}

acceptance("024-never-lose", "the daemon refuses to start on a damaged coffer.db and names the file, the latest snapshot's restore command and doctor", async () => {
  const home = await makeHome();
  const a = await daemon({ home });
  const conv = await a.conversation();
  for (let i = 0; i < 40; i++) await a.api.post("/memory", { text: `fact ${i} ${"padding ".repeat(60)}`, scope: "global" });
  await a.api.post(`/chat/conversations/${conv}/messages`, { text: "hello" });
  const snapshot = (await a.api.post("/settings/backups", {})).body.path as string;
  await a.stop();

  const file = damageMemoryTable(home);

  const refused = await startTestDaemon({ home, cliCommand: "coffer" }).then(
    (t) => t.close().then(() => null),
    (err: unknown) => err as { code: string; message: string },
  );
  expect(refused).toMatchObject({ code: "DATABASE_CORRUPT" });
  expect(refused!.message).toContain(file);
  expect(refused!.message).toContain(`coffer restore ${snapshot} --data-dir ${home}`);
  expect(refused!.message).toContain("coffer doctor");
  // Refused before anything was written: the lock is free and the damaged file was not migrated or served.
  expect(existsSync(join(home, "daemon.json"))).toBe(false);
});

test("a database over the start check's size is read whole only after an unclean stop: a clean stop starts at once, a crash is checked and refused", async () => {
  const home = await makeHome();
  const a = await daemon({ home });
  for (let i = 0; i < 40; i++) await a.api.post("/memory", { text: `fact ${i} ${"padding ".repeat(60)}`, scope: "global" });
  await a.stop();
  damageMemoryTable(home);

  // Every file counts as large here (0 MB): after the clean stop above, the start does not read it whole.
  const clean = await daemon({ home, startCheckMaxBytes: 0 });
  expect((await clean.api.get("/health")).status).toBe(200);
  await clean.stop();

  // A daemon.json left behind is a run that ended without its clean stop (a crash, kill -9).
  writeFileSync(join(home, "daemon.json"), JSON.stringify({ pid: 2 ** 22 + 1, port: 1, url: "http://127.0.0.1:1" }), { mode: 0o600 });
  const refused = await startTestDaemon({ home, startCheckMaxBytes: 0 }).then(
    (t) => t.close().then(() => null),
    (err: unknown) => err as { code: string },
  );
  expect(refused).toMatchObject({ code: "DATABASE_CORRUPT" });
});

test("a backup made without the key restores without it elsewhere, and keeps the data dir's own matching key when restored over it", async () => {
  const a = await daemon();
  await a.api.put("/credentials/gh.token", { secret: "ghp-without-key-0123456789" });
  const made = (await a.api.post("/settings/backups", { without_key: true })).body;
  expect(made).toMatchObject({ key_included: false, path: expect.stringMatching(/-without-key\.tar\.gz$/) });
  await a.stop();

  const elsewhere = `${await scratch()}/restored`;
  expect(await restoreBackup({ file: made.path, home: elsewhere })).toMatchObject({ key: "none", credentials: 1 });
  expect(existsSync(join(elsewhere, "credentials.key"))).toBe(false);

  const over = await restoreBackup({ file: made.path, home: a.home });
  cleanup.push(() => rm(over.previous!, { recursive: true, force: true }));
  expect(over).toMatchObject({ key: "carried", credentials: 1 });
  expect(readFileSync(join(a.home, "credentials.key"))).toEqual(readFileSync(join(over.previous!, "credentials.key")));
});

test("a read error on the backup file ends the walk with that error instead of waiting forever", { timeout: 15_000 }, async () => {
  // A folder opens but cannot be read (EISDIR), as root too; EACCES or EIO on a file take the same path.
  const dir = await scratch();
  await expect(walkArchive(dir, () => null)).rejects.toMatchObject({ code: "EISDIR" });
});
