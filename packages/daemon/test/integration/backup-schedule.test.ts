import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { BackupService } from "../../src/application/backup/backup-service.js";
import type { BackupRecord } from "../../src/application/backup/ports.js";
import { ArchiveBackupWriter } from "../../src/infrastructure/backup/backup-writer.js";
import { FileSnapshotFolder } from "../../src/infrastructure/backup/snapshot-folder.js";
import { openDatabase } from "../../src/infrastructure/sqlite/database.js";
import { snapshotDatabase } from "../../src/infrastructure/sqlite/database-snapshot.js";
import { consoleLogger } from "../../src/infrastructure/system/console-logger.js";
import { acceptance } from "../support/acceptance.js";
import { makeHome, startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

acceptance("024-never-lose", "scheduled snapshots are taken on time into a 0700 folder as 0600 files and rotated to keep N", async () => {
  const home = await mkdtemp(join(tmpdir(), "coffer-schedule-"));
  cleanup.push(() => rm(home, { recursive: true, force: true }));
  const db = openDatabase(join(home, "coffer.db"));
  cleanup.push(async () => db.close());
  // A folder the owner made with loose modes: the first snapshot makes it private.
  const folder = join(home, "snaps");
  mkdirSync(folder, { mode: 0o755 });
  const taken: BackupRecord[] = [];
  let fourth!: () => void;
  const four = new Promise<void>((resolve) => (fourth = resolve));
  const everyMs = 60;
  const service = new BackupService({
    // The real writer on a real database; only the schedule is shortened from hours to ms.
    writer: new ArchiveBackupWriter({ home, version: "test", snapshotDatabase: (to) => snapshotDatabase(db, to), key: () => null }),
    folder: new FileSnapshotFolder(folder),
    schedule: { everyMs, keep: 2, firstDelayMs: 0 },
    clock: { now: () => Date.now() },
    logger: consoleLogger("silent"),
    onSnapshot: (record) => {
      taken.push(record);
      if (taken.length === 4) fourth();
    },
  });
  const started = Date.now();
  service.start();
  await four;
  await service.stop();

  // On time: the first at once (no snapshot was due later), then one every `everyMs`.
  expect(taken[0]!.createdAt).toBeGreaterThanOrEqual(started);
  for (let i = 1; i < taken.length; i++) expect(taken[i]!.createdAt - taken[i - 1]!.createdAt).toBeGreaterThanOrEqual(everyMs);
  // Rotated: only the newest two are left.
  const left = readdirSync(folder).sort();
  expect(left).toEqual(taken.slice(-2).map((r) => r.path.split("/").pop()).sort());
  expect(statSync(folder).mode & 0o777).toBe(0o700);
  for (const name of left) expect(statSync(join(folder, name)).mode & 0o777).toBe(0o600);
  expect(service.status()).toMatchObject({ keep: 2, last: { path: taken[3]!.path }, next_due_at: null, running: false, last_error: null });
});

test("the daemon's schedule defaults to daily snapshots in <data dir>/backups, the first ten minutes after start, keeping 7", async () => {
  const t: TestDaemon = await startTestDaemon();
  cleanup.push(() => t.close());
  const status = (await t.api.get("/settings/backups")).body;
  expect(status).toMatchObject({ folder: join(t.home, "backups"), keep: 7, every_hours: 24, last: null, running: false, last_error: null });
  expect(status.next_due_at - Date.now()).toBeGreaterThan(9 * 60_000);
  expect(status.next_due_at - Date.now()).toBeLessThanOrEqual(10 * 60_000);
});

test("Back up now rotates the snapshot folder to keep N; a path the owner names is kept and never overwritten", async () => {
  const home = await makeHome();
  const t = await startTestDaemon({ home, backup: { folder: join(home, "elsewhere"), keep: 2, everyMs: 0 } });
  cleanup.push(() => t.close());
  const made = [];
  for (let i = 0; i < 3; i++) made.push((await t.api.post("/settings/backups", {})).body.path as string);
  expect(readdirSync(join(home, "elsewhere")).sort()).toEqual(made.slice(1).map((p) => p.split("/").pop()).sort());
  const status = (await t.api.get("/settings/backups")).body;
  expect(status).toMatchObject({ every_hours: 0, next_due_at: null, last: { path: made[2] } });

  const named = join(t.home, "..", `${t.home.split("/").pop()}-named.tar.gz`);
  cleanup.push(() => rm(named, { force: true }));
  expect((await t.api.post("/settings/backups", { path: named, without_key: true })).body).toMatchObject({ path: named, key_included: false });
  const again = await t.api.post("/settings/backups", { path: named });
  expect(again.status).toBe(422);
  expect(again.body.error).toMatchObject({ code: "BACKUP_PATH_INVALID", details: { reason: expect.stringContaining("already there") } });
  expect((await t.api.post("/settings/backups", { path: "relative/file.tar.gz" })).body.error.code).toBe("BACKUP_PATH_INVALID");
  expect((await t.api.post("/settings/backups", { path: "/no/such/folder/x.tar.gz" })).body.error).toMatchObject({ code: "BACKUP_PATH_INVALID", details: { reason: expect.stringContaining("does not exist") } });
  // Only the folder's snapshots rotate: the named file is still there.
  expect(statSync(named).mode & 0o777).toBe(0o600);
});

test("a garbled credentials key does not stop a backup: the database is written without the key, and says so", async () => {
  const home = await makeHome();
  const t = await startTestDaemon({ home });
  cleanup.push(() => t.close());
  await t.api.post("/memory", { text: "kept even when the key is broken", scope: "global" });
  writeFileSync(join(home, "credentials.key"), "not a key\n", { mode: 0o600 });
  const made = await t.api.post("/settings/backups", {});
  expect(made.status).toBe(201);
  expect(made.body.key_included).toBe(false);
});

test("what an interrupted backup left (a staged database copy, a half-written archive) is removed at the next start", async () => {
  const home = await makeHome();
  mkdirSync(join(home, "backups"), { recursive: true, mode: 0o700 });
  const staged = join(home, ".backup-0123456789ab.db");
  const partial = join(home, "backups", "coffer-backup-20261204-090000-000.tar.gz.partial-0123456789ab");
  const kept = join(home, "backups", "coffer-backup-20261203-090000-000.tar.gz");
  for (const path of [staged, partial, kept]) writeFileSync(path, "x", { mode: 0o600 });
  const t = await startTestDaemon({ home });
  cleanup.push(() => t.close());
  expect(existsSync(staged)).toBe(false);
  expect(existsSync(partial)).toBe(false);
  expect(existsSync(kept)).toBe(true);
});
