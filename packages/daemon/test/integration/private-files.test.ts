import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { consoleLogger } from "../../src/infrastructure/system/console-logger.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";
import { cleanupAfterEach } from "../support/cleanup.js";

const CLI = fileURLToPath(new URL("../../../cli/dist/main.js", import.meta.url));
const mode = (path: string) => statSync(path).mode & 0o777;

const { cleanup, tempDir } = cleanupAfterEach();

async function daemonOn(home: string, logLines?: string[]): Promise<TestDaemon> {
  const t = await startTestDaemon({ home, ...(logLines ? { logger: consoleLogger("warn", (l) => logLines.push(l)) } : {}) });
  cleanup.push(() => t.stop());
  return t;
}

/** A symlink planted at `name` in the data dir, pointing at a file outside it. */
function plantLink(home: string, name: string, content: string) {
  const outside = join(tempDir("coffer-outside-"), "target");
  writeFileSync(outside, content, { mode: 0o644 });
  chmodSync(outside, 0o644);
  symlinkSync(outside, join(home, name));
  return { outside, untouched: () => expect([readFileSync(outside, "utf8"), mode(outside)]).toEqual([content, 0o644]) };
}

describe("file modes", () => {
  test("an existing 0755 data dir becomes 0700; every file the daemon writes is 0600, also ones an older version left 0644", async () => {
    const home = join(tempDir("coffer-modes-"), "home");
    mkdirSync(home, { mode: 0o755 });
    chmodSync(home, 0o755);
    let t = await daemonOn(home);
    expect(mode(home)).toBe(0o700);
    expect((await t.api.put("/credentials/k", { secret: "s3cret" })).status).toBe(200);
    const skill = join(tempDir("coffer-skill-src-"), "demo");
    mkdirSync(skill);
    writeFileSync(join(skill, "SKILL.md"), "---\nname: demo\ndescription: a demo\n---\nbody\n", { mode: 0o644 });
    expect((await t.api.post("/skills/import", { path: skill })).status).toBe(200);
    const files = ["coffer.db", "coffer.db-wal", "coffer.db-shm", "token", "daemon.json", "credentials.key", "daemon.lock", "skills/demo/SKILL.md"];
    expect(Object.fromEntries(files.map((f) => [f, mode(join(home, f)).toString(8)]))).toEqual(Object.fromEntries(files.map((f) => [f, "600"])));

    // An older Coffer left them world-readable: the next start tightens them.
    await t.stop();
    for (const f of ["coffer.db", "token", "credentials.key"]) chmodSync(join(home, f), 0o644);
    chmodSync(home, 0o755);
    t = await daemonOn(home);
    expect((await t.api.put("/credentials/k2", { secret: "again" })).status).toBe(200);
    expect(mode(home)).toBe(0o700);
    for (const f of ["coffer.db", "coffer.db-wal", "coffer.db-shm", "token", "credentials.key"]) expect([f, mode(join(home, f))]).toEqual([f, 0o600]);
  });
});

describe("links and foreign content are refused", () => {
  test("a symlinked token or daemon.json stops the start with a clear error; the link's target is untouched", async () => {
    for (const name of ["token", "daemon.json"]) {
      const home = tempDir("coffer-link-");
      const link = plantLink(home, name, name === "token" ? `${"A".repeat(43)}\n` : '{"pid":1}');
      await expect(startTestDaemon({ home })).rejects.toMatchObject({
        code: "DATA_DIR_UNSAFE",
        message: expect.stringContaining(`${join(home, name)} is a symbolic link; Coffer refuses to use it`),
      });
      link.untouched();
      // The refusal freed the data dir: once the link is gone the daemon starts.
      rmSync(join(home, name));
      await daemonOn(home);
    }
  });

  test("a symlinked credentials.key is refused over REST (CREDENTIALS_KEY_CORRUPT, not a 500); the target is untouched", async () => {
    const home = tempDir("coffer-keylink-");
    const link = plantLink(home, "credentials.key", `${Buffer.alloc(32, 1).toString("base64")}\n`);
    const t = await daemonOn(home);
    const res = await t.api.put("/credentials/k", { secret: "s" });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatchObject({ code: "CREDENTIALS_KEY_CORRUPT", message: expect.stringContaining("is a symbolic link") });
    link.untouched();
  });

  test("a token with control bytes is replaced by a fresh one, with a warning that never quotes it", async () => {
    const home = tempDir("coffer-badtoken-");
    const bad = `${"x".repeat(20)}\u0007\u001b[2J${"y".repeat(20)}`;
    writeFileSync(join(home, "token"), bad, { mode: 0o600 });
    const lines: string[] = [];
    const t = await daemonOn(home, lines);
    expect(t.daemon.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(join(home, "token"), "utf8")).toBe(`${t.daemon.token}\n`);
    const warning = lines.map((l) => JSON.parse(l)).find((l) => l.level === "warn" && /token file did not hold a valid token/.test(l.msg));
    expect(warning).toBeDefined();
    expect(lines.join("")).not.toContain("x".repeat(20));
    expect((await t.api.get("/health")).status).toBe(200);
  });
});

describe("a corrupt credential key", () => {
  function cli(t: TestDaemon, args: string[], stdin: string): Promise<{ code: number; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [CLI, "--url", t.daemon.url, "--token", t.daemon.token, ...args], { env: { ...process.env, COFFER_HOME: t.home } });
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
      child.on("close", (code) => resolve({ code: code ?? -1, stderr }));
      child.stdin.end(stdin);
    });
  }

  test("a 0-byte or garbled credentials.key answers 503 CREDENTIALS_KEY_CORRUPT with how to recover, over REST and the CLI; deleting it recovers", { timeout: 30_000 }, async () => {
    const t = await daemonOn(tempDir("coffer-badkey-"));
    const keyFile = join(t.home, "credentials.key");
    for (const content of ["", "not a key at all\n"]) {
      writeFileSync(keyFile, content, { mode: 0o600 });
      const res = await t.api.put("/credentials/k", { secret: "s" });
      expect(res.status).toBe(503);
      expect(res.body.error).toMatchObject({ code: "CREDENTIALS_KEY_CORRUPT", message: expect.stringContaining("otherwise delete it") });
      const viaCli = await cli(t, ["cred", "set", "k"], "s\n");
      expect(viaCli.code).toBe(10);
      expect(viaCli.stderr).toContain("[CREDENTIALS_KEY_CORRUPT]");
    }
    // The documented recovery: delete the file; the next write makes a new key, no restart.
    rmSync(keyFile);
    expect((await t.api.put("/credentials/k", { secret: "s" })).status).toBe(200);
  });
});
