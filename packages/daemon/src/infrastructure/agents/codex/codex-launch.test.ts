import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { resolveCodexLaunch } from "./codex-launch.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "coffer-codex-launch-"));
  await writeFile(join(dir, "codex"), "#!/bin/sh\n");
  await chmod(join(dir, "codex"), 0o755);
  await writeFile(join(dir, "not-executable"), "");
});
afterAll(() => rm(dir, { recursive: true, force: true }));

test("by default: codex from PATH, the owner's own CODEX_HOME untouched", () => {
  const launch = resolveCodexLaunch({ PATH: dir, CODEX_HOME: "/home/owner/.codex", OTHER: "kept" });
  expect(launch).toEqual({
    binary: join(dir, "codex"),
    args: ["app-server", "-c", "thread_unload_delay_secs=0"],
    env: { PATH: dir, CODEX_HOME: "/home/owner/.codex", OTHER: "kept" },
  });
});

test("COFFER_CODEX_BIN and COFFER_CODEX_HOME point Coffer's codex elsewhere", () => {
  const launch = resolveCodexLaunch({ PATH: "", COFFER_CODEX_BIN: join(dir, "codex"), COFFER_CODEX_HOME: "/tmp/ch", CODEX_HOME: "/home/owner/.codex" });
  expect(launch.binary).toBe(join(dir, "codex"));
  expect(launch.env.CODEX_HOME).toBe("/tmp/ch");
});

test("nothing runnable: no binary", () => {
  expect(resolveCodexLaunch({ PATH: join(dir, "nowhere") }).binary).toBeNull();
  expect(resolveCodexLaunch({ PATH: dir, COFFER_CODEX_BIN: join(dir, "not-executable") }).binary).toBeNull();
});
