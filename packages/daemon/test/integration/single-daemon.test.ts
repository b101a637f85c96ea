import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, test } from "vitest";
import { script } from "../support/scripted-agent.js";
import { spawnDaemon } from "../support/spawn-daemon.js";
import { makeHome, startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const CLI = fileURLToPath(new URL("../../../cli/dist/main.js", import.meta.url));
const NPM_START = fileURLToPath(new URL("../../../../scripts/start.mjs", import.meta.url));

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

interface Outcome {
  readonly code: number | string | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a second `coffer start` on the same data dir. It either exits (the fix) or prints its
 * banner (the defect: two daemons on one dir); on the banner it is stopped and reported as such.
 */
function secondStart(entry: string, home: string): Promise<Outcome> {
  const args = entry === CLI ? [CLI, "start", "--port", "0"] : [entry, "--port", "0"];
  const child = spawn(process.execPath, args, { env: { ...process.env, COFFER_HOME: home, COFFER_LOG_LEVEL: "warn" } });
  let stdout = "";
  let stderr = "";
  return new Promise((resolve) => {
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      stdout += c;
      if (stdout.includes("Coffer is running")) child.kill("SIGTERM");
    });
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("exit", (code, signal) => resolve({ code: code ?? signal, stdout, stderr }));
  });
}

test("a second daemon on the same data dir exits at once naming the first; the first's streaming turn is untouched", { timeout: 120_000 }, async () => {
  const t: TestDaemon = await startTestDaemon();
  cleanup.push(() => t.close());
  const id = await t.conversation();
  const sub = await t.subscribe(id);
  await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "Hel" }, { gate: "go" }, { text: "lo" }) });
  await sub.waitFor((e) => e.type === "text_delta");
  const infoBefore = readFileSync(join(t.home, "daemon.json"), "utf8");

  for (const entry of [CLI, NPM_START]) {
    const second = await secondStart(entry, t.home);
    expect(second.stdout).toBe("");
    // One clear line: what is wrong, who holds the dir (pid and URL), a stable code, exit 9.
    expect(second.stderr.trim().split("\n")).toHaveLength(1);
    expect(second.stderr).toContain(`another Coffer daemon is already running on ${t.home} (pid ${process.pid}, ${t.daemon.url})`);
    expect(second.stderr).toContain("[DAEMON_ALREADY_RUNNING]");
    expect(second.code).toBe(9);
  }

  // The first daemon never noticed: daemon.json still names it, and its turn finishes whole.
  expect(readFileSync(join(t.home, "daemon.json"), "utf8")).toBe(infoBefore);
  expect(sub.types()).not.toContain("turn_error");
  t.scripted.gates.open("go");
  await sub.waitFor((e) => e.type === "turn_done");
  sub.close();
  expect(sub.types()).not.toContain("turn_error");
  const assistant = (await t.api.get(`/chat/conversations/${id}/messages`)).body.messages[1];
  expect(assistant).toMatchObject({ status: "complete", content: [{ type: "text", text: "Hello" }] });
});

test("after kill -9 the lock is the OS's to drop: the next start takes the data dir over, and holds it", { timeout: 120_000 }, async () => {
  const home = await makeHome();
  cleanup.push(() => rm(home, { recursive: true, force: true }));
  const first = await spawnDaemon(home);
  cleanup.push(async () => first.child.kill("SIGKILL"));
  // While it lives, the dir is taken.
  await expect(spawnDaemon(home)).rejects.toThrow(/DAEMON_ALREADY_RUNNING|already running/);

  first.child.kill("SIGKILL");
  expect(await first.exited).toBe("SIGKILL");
  // daemon.json still names the dead daemon; the lock went with its process.
  expect(JSON.parse(readFileSync(join(home, "daemon.json"), "utf8")).pid).toBe(first.pid);
  const next = await spawnDaemon(home);
  cleanup.push(async () => {
    next.child.kill("SIGTERM");
    await next.exited;
  });
  expect(JSON.parse(readFileSync(join(home, "daemon.json"), "utf8"))).toMatchObject({ pid: next.pid, url: next.url });
  const health = await fetch(`${next.url}/api/v1/health`, { headers: { authorization: `Bearer ${next.token}` } });
  expect(health.status).toBe(200);
  // And the new holder is exclusive in turn, named by its own pid and URL.
  await expect(spawnDaemon(home)).rejects.toThrow(`pid ${next.pid}, ${next.url}`);
});
