import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { spawnDaemon } from "../support/spawn-daemon.js";
import { makeHome, startTestDaemon } from "../support/test-daemon.js";
import { skillMd, writeSkill } from "../support/vault-fixtures.js";

const SPEC = "021-hardening";
const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

acceptance(SPEC, "deleting daemon.lock does not let a second daemon run on the same data dir", async () => {
  const first = await startTestDaemon();
  cleanup.push(() => first.close());
  // The attack: the lock file is just a name in the dir; remove it and start again.
  rmSync(join(first.home, "daemon.lock"));
  const second = spawnDaemon(first.home);
  cleanup.push(async () => {
    const d = await second.catch(() => null);
    d?.child.kill("SIGKILL");
  });
  await expect(second).rejects.toThrow(/DAEMON_ALREADY_RUNNING|already running/);
  // The first daemon still answers, and once it stops the dir is free again.
  expect((await first.api.get("/health")).status).toBe(200);
  await first.stop();
  const next = await spawnDaemon(first.home);
  next.child.kill("SIGTERM");
  await next.exited;
}, 60_000);

acceptance(SPEC, "a symbolic link in place of coffer.db, and links inside an imported skill, are refused", async () => {
  const home = await makeHome();
  const elsewhere = mkdtempSync(join(tmpdir(), "coffer-elsewhere-"));
  cleanup.push(() => rm(home, { recursive: true, force: true }), () => rm(elsewhere, { recursive: true, force: true }));
  const target = join(elsewhere, "victim.db");
  writeFileSync(target, "");
  symlinkSync(target, join(home, "coffer.db"));
  await expect(startTestDaemon({ home })).rejects.toMatchObject({ code: "DATA_DIR_UNSAFE", message: expect.stringMatching(/coffer\.db is a symbolic link.*remove it/) });
  // Nothing was opened or migrated through the link: no WAL or shared-memory file beside the target.
  expect(statSync(target).size).toBe(0);
  expect(existsSync(`${target}-wal`) || existsSync(`${target}-shm`)).toBe(false);

  // A link planted as the write-ahead log is refused the same way.
  rmSync(join(home, "coffer.db"));
  symlinkSync(join(elsewhere, "planted-wal"), join(home, "coffer.db-wal"));
  await expect(startTestDaemon({ home })).rejects.toMatchObject({ code: "DATA_DIR_UNSAFE", message: expect.stringContaining("coffer.db-wal is a symbolic link") });
  expect(existsSync(join(elsewhere, "planted-wal"))).toBe(false);
  rmSync(join(home, "coffer.db-wal"));

  // Skills: a SKILL.md that is a link (edit the target later, and agents load the new text), and
  // a skill with a linked helper file. Neither is copied; the import says why. A plain one imports.
  const t = await startTestDaemon({ home });
  cleanup.push(() => t.stop());
  const skills = join(elsewhere, "skills");
  await writeSkill(skills, "plain", skillMd("plain-skill", "Plain."));
  writeFileSync(join(elsewhere, "real-skill.md"), skillMd("linked-skill", "Harmless today."));
  mkdirSync(join(skills, "linked"));
  symlinkSync(join(elsewhere, "real-skill.md"), join(skills, "linked", "SKILL.md"));
  await writeSkill(skills, "helper", skillMd("helper-skill", "Has a helper."));
  symlinkSync("/etc/hostname", join(skills, "helper", "notes.txt"));
  const res = await t.api.post("/skills/import", { path: skills });
  expect(res.status).toBe(200);
  expect(res.body.imported.map((s: { name: string }) => s.name)).toEqual(["plain-skill"]);
  expect(res.body.skipped).toEqual([
    { folder: "helper", problem: "holds a symbolic link (notes.txt); links are not imported" },
    { folder: "linked", problem: "holds a symbolic link (SKILL.md); links are not imported" },
  ]);
  const library = join(home, "skills");
  expect(readdirSync(library).filter((n) => !n.startsWith("."))).toEqual(["plain-skill"]);
  expect(lstatSync(join(library, "plain-skill", "SKILL.md")).isSymbolicLink()).toBe(false);
});
