/**
 * Issue 24: `coffer backup`, `coffer restore` and `coffer doctor`, run as the owner runs them
 * (the built CLI, finding the daemon through the data dir), against real daemons and files.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, existsSync, mkdtempSync, openSync, readdirSync, writeFileSync, writeSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect } from "vitest";
import { acceptance } from "../../daemon/test/support/acceptance.js";
import { script } from "../../daemon/test/support/scripted-agent.js";
import { makeHome, startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { cofferAtHome, cofferAtHomeOnTerminal } from "./support/run-cli.js";

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function daemonAt(home: string): Promise<TestDaemon> {
  const t = await startTestDaemon({ home });
  cleanup.push(() => t.close());
  return t;
}

async function conversation(t: TestDaemon, title: string): Promise<string> {
  const id = (await t.api.post("/chat/conversations", { agent_key: "scripted", title })).body.id as string;
  const sub = await t.subscribe(id);
  await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "noted" }) });
  await sub.waitFor((e) => e.type === "turn_done");
  sub.close();
  return id;
}

const titles = async (t: TestDaemon) => ((await t.api.get("/chat/conversations")).body.conversations as { title: string }[]).map((c) => c.title).sort();

describe("coffer backup, restore, doctor", { timeout: 120_000 }, () => {
  acceptance("024-never-lose", "coffer backup asks the running daemon, and backs up the data dir directly when no daemon runs", async () => {
    const home = await makeHome();
    const t = await daemonAt(home);
    await conversation(t, "Quarterly plan");
    await t.api.put("/credentials/gh.token", { secret: "ghp-backup-cli-0123456789" });
    const online = await cofferAtHome(home, ["backup", "--json"]);
    expect(online.code).toBe(0);
    const made = JSON.parse(online.stdout) as { path: string; key_included: boolean };
    expect(made.path.startsWith(join(home, "backups"))).toBe(true);
    // The running daemon wrote it: its status knows it as the last snapshot.
    expect((await t.api.get("/settings/backups")).body.last.path).toBe(made.path);

    await t.stop();
    const offline = await cofferAtHome(home, ["backup"]);
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain("from the data dir directly (no daemon is running)");
    expect(offline.stdout).toContain("It holds the credentials key");
    expect(readdirSync(join(home, "backups"))).toHaveLength(2);

    const elsewhere = mkdtempSync(join(tmpdir(), "coffer-backups-"));
    cleanup.push(() => rm(elsewhere, { recursive: true, force: true }));
    const named = await cofferAtHome(home, ["backup", elsewhere, "--without-key"]);
    expect(named.code).toBe(0);
    expect(named.stdout).toContain("It does not hold the credentials key");
    expect(readdirSync(elsewhere)).toEqual([expect.stringMatching(/^coffer-backup-\d{8}-\d{6}-\d{3}-without-key\.tar\.gz$/)]);
    // A file that is already there is never overwritten.
    const clash = await cofferAtHome(home, ["backup", join(elsewhere, readdirSync(elsewhere)[0]!)]);
    expect(clash.code).toBe(4);
    expect(clash.stderr).toContain("[BACKUP_PATH_INVALID]");
  });

  acceptance("024-never-lose", "coffer restore asks first, keeps the replaced data dir beside the restored one, and the restored daemon serves the backup's data", async () => {
    const home = await makeHome();
    let t = await daemonAt(home);
    await conversation(t, "Quarterly plan");
    await t.api.put("/credentials/gh.token", { secret: "ghp-restore-cli-0123456789" });
    const backup = JSON.parse((await cofferAtHome(home, ["backup", "--json"])).stdout).path as string;
    await conversation(t, "After the backup");

    // While the daemon runs, restore refuses (exit 9) and changes nothing.
    const running = await cofferAtHome(home, ["restore", backup, "--yes"]);
    expect(running.code).toBe(9);
    expect(running.stderr).toContain("[DAEMON_ALREADY_RUNNING]");
    await t.stop();

    // No terminal: --yes is required. On a terminal, "n" keeps everything.
    const unasked = await cofferAtHome(home, ["restore", backup]);
    expect(unasked.code).toBe(4);
    expect(unasked.stderr).toContain("add --yes to confirm");
    const declined = await cofferAtHomeOnTerminal(home, ["restore", backup], "n\n");
    expect(declined.stdout).toMatch(/Restore the backup of \d{4}-\d{2}-\d{2}T[\d:.]+Z \(with the credentials key\) into .+\? The data dir there now is kept beside it\. \[y\/N\]/);
    expect(declined.stdout).toContain("not restored [CANCELLED]");
    expect(declined.code).toBe(1);

    const restored = await cofferAtHomeOnTerminal(home, ["restore", backup], "y\n");
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(`into ${home}: 1 conversation, 2 messages, 0 memories, 0 knowledge documents, 0 queued messages.`);
    const kept = readdirSync(join(home, "..")).filter((n) => n.startsWith(`${home.split("/").pop()}.before-restore-`));
    expect(kept).toHaveLength(1);
    cleanup.push(() => rm(join(home, "..", kept[0]!), { recursive: true, force: true }));
    expect(restored.stdout).toContain(`kept at ${join(home, "..", kept[0]!)}`);
    expect(restored.stdout).toContain("The credentials key came with it and opens its credential.");
    // The snapshot folder came along, so the backup is still where the owner had it.
    expect(existsSync(backup)).toBe(true);

    t = await daemonAt(home);
    expect(await titles(t)).toEqual(["Quarterly plan"]);
  });

  acceptance("024-never-lose", "coffer doctor finds a damaged database, a key that does not open the credentials and loose file modes, says the fix for each, and exits non-zero", async () => {
    const home = await makeHome();
    const t = await daemonAt(home);
    await conversation(t, "Quarterly plan");
    await t.api.put("/credentials/gh.token", { secret: "ghp-doctor-check-0123456789" });
    for (let i = 0; i < 30; i++) await t.api.post("/memory", { text: `fact ${i} ${"padding ".repeat(60)}`, scope: "global" });
    const snapshot = (await t.api.post("/settings/backups", {})).body.path as string;
    // With the daemon running: doctor is only another reader.
    const live = await cofferAtHome(home, ["doctor"]);
    expect(live.code).toBe(0);
    expect(live.stdout).toContain("✓ coffer.db passes SQLite's integrity check");
    expect((await t.api.get("/health")).status).toBe(200);
    await t.stop();

    const healthy = await cofferAtHome(home, ["doctor"]);
    expect(healthy.code).toBe(0);
    expect(healthy.stdout).toContain("✓ coffer.db passes SQLite's integrity check (1 conversation, 2 messages, 30 memories, 0 knowledge documents).");
    expect(healthy.stdout).toContain("✓ The credentials key is present and opens the stored credential.");
    expect(healthy.stdout).toContain(`✓ Latest snapshot: ${snapshot}`);
    expect(healthy.stdout).toContain("No problems found.");

    // Loose modes.
    chmodSync(join(home, "coffer.db"), 0o644);
    chmodSync(join(home, "backups"), 0o755);
    // A key that is not the one the credentials were sealed with.
    writeFileSync(join(home, "credentials.key"), `${randomBytes(32).toString("base64")}\n`, { mode: 0o600 });
    const sick = await cofferAtHome(home, ["doctor"]);
    expect(sick.code).toBe(12);
    expect(sick.stdout).toContain(`✗ ${join(home, "coffer.db")} is mode 0644; other users can read it.\n    → chmod 600 ${join(home, "coffer.db")}`);
    expect(sick.stdout).toContain(`✗ The snapshot folder ${join(home, "backups")} is mode 0755`);
    expect(sick.stdout).toContain("does not open the stored credentials.\n    → Restore the key with its database from a backup");
    expect(sick.stderr).toContain("problems found; each has its fix above [PROBLEMS_FOUND]");

    // A damaged page: doctor names the snapshot to restore, and `coffer start` refuses with the same way forward.
    const reader = new Database(join(home, "coffer.db"), { readonly: true });
    const root = (reader.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'memory_facts'").get() as { rootpage: number }).rootpage;
    const pageSize = reader.pragma("page_size", { simple: true }) as number;
    reader.close();
    const fd = openSync(join(home, "coffer.db"), "r+");
    writeSync(fd, randomBytes(pageSize), 0, pageSize, (root - 1) * pageSize);
    closeSync(fd);
    const damaged = await cofferAtHome(home, ["doctor"]);
    expect(damaged.code).toBe(12);
    expect(damaged.stdout).toContain("✗ coffer.db fails SQLite's integrity check");
    expect(damaged.stdout).toContain(`→ Stop the daemon and restore the latest snapshot: \`coffer restore ${snapshot}\`.`);
    const start = await cofferAtHome(home, ["start", "--port", "0", "--no-open"], { COFFER_KEYRING: "off", COFFER_LOG_LEVEL: "silent", HOME: `${home}-owner` });
    expect(start.code).toBe(10);
    expect(start.stderr).toContain(`the database ${join(home, "coffer.db")} is damaged`);
    expect(start.stderr).toContain(`coffer restore ${snapshot} --data-dir ${home}`);
    expect(start.stderr).toContain("[DATABASE_CORRUPT]");
  });
});
