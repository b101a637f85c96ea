/**
 * Issue 21 (Hardening II), the directory-modes note: `<data dir>/skills` and the default
 * workspace were made 0755 (the process umask). Both hold the owner's material, so Coffer makes
 * them 0700; a folder the owner made and named as the workspace keeps its own mode. The
 * default workspace sits outside the data dir (W1). Real daemon, real HTTP, real folders.
 */
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { resolveDaemonConfig } from "../../src/main.js";
import { consoleLogger } from "../../src/infrastructure/system/console-logger.js";
import { acceptance } from "../support/acceptance.js";
import { makeHome, startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const mode = async (path: string) => (await stat(path)).mode & 0o777;
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A daemon whose PATH has a stand-in `claude` (only its presence matters: no turn runs). */
async function daemon(overrides: { home?: string; workspace?: string } = {}): Promise<TestDaemon> {
  const bin = await tempDir("coffer-bin-");
  await writeFile(join(bin, "claude"), "#!/bin/sh\nexit 0\n");
  await chmod(join(bin, "claude"), 0o755);
  const t = await startTestDaemon({ ...overrides, env: { ...process.env, PATH: bin } });
  cleanup.push(() => t.close());
  return t;
}

async function newConversationCwd(t: TestDaemon): Promise<string> {
  const res = await t.api.post("/chat/conversations", { agent_key: "claude_code" });
  expect(res.status).toBe(201);
  return (await t.api.get(`/chat/conversations/${res.body.id}/agent-config`)).body.cwd;
}

describe("private folders", () => {
  acceptance("021-hardening", "skills/ and the default workspace are created 0700", async () => {
    const t = await daemon();
    // The process umask (022 here) would give 0755: the modes below are Coffer's choice.
    expect(process.umask() & 0o077).not.toBe(0o077);
    expect((await t.api.get("/skills")).status).toBe(200);
    expect(await mode(join(t.home, "skills"))).toBe(0o700);

    const cwd = await newConversationCwd(t);
    expect(cwd).toBe(t.workspace);
    expect((await t.api.get("/chat/agents")).body.workspace).toBe(t.workspace); // what the page shows
    expect(await mode(cwd)).toBe(0o700);
    expect(relative(t.home, cwd).startsWith("..")).toBe(true); // not inside the data dir
  });

  test("a skills/ an older version left 0755 is set to 0700; a workspace folder the owner made keeps its mode", async () => {
    const home = await makeHome();
    await mkdir(join(home, "skills"), { mode: 0o755 });
    await chmod(join(home, "skills"), 0o755);
    const owners = join(await tempDir("coffer-owner-"), "projects");
    await mkdir(owners, { mode: 0o755 });
    await chmod(owners, 0o755);
    const t = await daemon({ home, workspace: owners });
    expect((await t.api.get("/skills")).status).toBe(200);
    expect(await mode(join(home, "skills"))).toBe(0o700);
    expect(await newConversationCwd(t)).toBe(owners);
    expect(await mode(owners)).toBe(0o755);
  });
});

describe("where the default workspace is", () => {
  test("~/coffer-workspace by default, COFFER_WORKSPACE or --workspace elsewhere; never inside the data dir", () => {
    const env = { HOME: "/home/owner" };
    expect(resolveDaemonConfig(env)).toMatchObject({ home: "/home/owner/.coffer", workspace: "/home/owner/coffer-workspace" });
    expect(resolveDaemonConfig({ ...env, COFFER_WORKSPACE: "~/work" }).workspace).toBe("/home/owner/work");
    expect(resolveDaemonConfig({ ...env, COFFER_WORKSPACE: "/srv/a" }, { workspace: "/srv/b" }).workspace).toBe("/srv/b");
    expect(() => resolveDaemonConfig({ ...env, COFFER_WORKSPACE: "/home/owner/.coffer/workspace" })).toThrow(/must be outside the data dir/);
    expect(() => resolveDaemonConfig(env, { home: "/srv/data", workspace: "/srv/data" })).toThrow(/must be outside the data dir/);
  });
});

test("a workspace that holds the data dir (COFFER_WORKSPACE=~ with ~/.coffer) is allowed, with a warning at start", async () => {
  const owner = await tempDir("coffer-owner-");
  const home = join(owner, ".coffer");
  const lines: string[] = [];
  const t = await startTestDaemon({ home, workspace: owner, logger: consoleLogger("warn", (l) => lines.push(l)) });
  cleanup.push(() => t.stop());
  expect(lines.map((l) => JSON.parse(l))).toContainEqual(expect.objectContaining({ level: "warn", msg: expect.stringContaining("the data dir is inside the workspace"), workspace: owner }));
});
