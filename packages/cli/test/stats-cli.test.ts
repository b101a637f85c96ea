import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { formatStats } from "../src/commands/stats.js";

const CLI = fileURLToPath(new URL("../dist/main.js", import.meta.url));
let t: TestDaemon;

beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

function coffer(args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, "--url", t.daemon.url, "--token", t.daemon.token, ...args], {
      env: { ...process.env, COFFER_HOME: t.home },
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout }));
  });
}

describe("coffer stats", { timeout: 60_000 }, () => {
  test("--json is GET /system/stats: the pool's cap, stream listeners, database size", async () => {
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    const run = await coffer(["stats", "--json"]);
    expect(run.code).toBe(0);
    const stats = JSON.parse(run.stdout);
    expect(stats).toMatchObject({ warm_processes: [], warm_cap: 4, warm_rss_bytes: 0, turns_running: 0, bus_subscribers: 1, buses: 1 });
    expect(stats.db.file_bytes).toBeGreaterThan(0);
    expect(stats.db.total_bytes).toBe(stats.db.file_bytes + stats.db.wal_bytes);
    // The daemon's own footprint (what bench:soak samples): its heap is part of its resident memory.
    expect(stats.daemon.heap_used_bytes).toBeGreaterThan(0);
    expect(stats.daemon.rss_bytes).toBeGreaterThan(stats.daemon.heap_used_bytes);
    expect(stats.daemon.open_fds).toBeGreaterThan(3);
    sub.close();

    const text = await coffer(["stats"]);
    expect(text.stdout).toContain("warm agent processes  0 of 4 (COFFER_MAX_WARM_AGENTS)");
    expect(text.stdout).toMatch(/database\s+\d+\.\d MiB/);
    expect(stats.attachments).toEqual({ count: 0, files: 0, bytes: 0 });
    expect(text.stdout).toContain("attachments           0 uploads in 0 files, 0.0 MiB\n");
  });

  test("each warm process is a row: pid, agent, conversation, memory, running or idle since", () => {
    const now = 1_000_000;
    const text = formatStats(
      {
        warm_processes: [
          { pid: 41, agent_key: "claude_code", conversation_id: "c1", shared: false, busy: true, rss_bytes: 200 * 2 ** 20, group_rss_bytes: 210 * 2 ** 20, idle_since: null },
          { pid: 42, agent_key: "claude_code", conversation_id: null, shared: false, busy: false, rss_bytes: 2 ** 20, group_rss_bytes: 2 ** 20, idle_since: now - 30_000 },
          { pid: 43, agent_key: "codex", conversation_id: null, shared: true, busy: false, rss_bytes: null, group_rss_bytes: null, idle_since: null },
        ],
        warm_cap: 4,
        warm_rss_bytes: 211 * 2 ** 20,
        turns_running: 1,
        bus_subscribers: 2,
        buses: 1,
        db: { file_bytes: 2 ** 20, wal_bytes: 0, total_bytes: 2 ** 20 },
        daemon: { rss_bytes: 90 * 2 ** 20, heap_used_bytes: 30 * 2 ** 20, open_fds: 41 },
        attachments: { count: 3, files: 2, bytes: 5 * 2 ** 20 },
      },
      now,
    );
    expect(text).toContain("warm agent processes  2 of 4 (COFFER_MAX_WARM_AGENTS) + 1 shared, 211.0 MiB resident");
    expect(text).toMatch(/41\s+claude_code\s+c1\s+200\.0 MiB\s+210\.0 MiB\s+running/);
    expect(text).toMatch(/42\s+claude_code\s+\(pre-warmed draft\)\s+1\.0 MiB\s+1\.0 MiB\s+idle 30 s/);
    expect(text).toMatch(/43\s+codex\s+\(shared by all\)\s+\?\s+\?\s+idle/);
    expect(text).toContain("stream listeners      2 on 1 conversation bus\n");
    expect(text).toContain("daemon                90.0 MiB resident, heap 30.0 MiB, 41 open files\n");
    expect(text).toContain("attachments           3 uploads in 2 files, 5.0 MiB\n");
  });
});
