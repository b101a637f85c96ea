/**
 * The reaper signals only what is provably a previous daemon's: a ledger row's pid counts only
 * with the start time recorded for it (/proc/<pid>/stat field 22). A pid the kernel has since
 * handed to another process has another start time, and that process must be left alone.
 * Real processes and a real SQLite ledger; the "reused pid" is a harmless node child of this
 * test (in its own process group, so a wrong kill could never reach the test runner).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import type { Logger } from "../../application/ports.js";
import { openDatabase } from "../sqlite/database.js";
import { SqliteAgentProcessLedger } from "../sqlite/stores/sqlite-agent-process-ledger.js";
import { acceptance } from "../../../test/support/acceptance.js";
import { reapOrphans } from "./orphan-reaper.js";
import { isAlive, procStat } from "./proc-table.js";

const QUIET: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).reverse().forEach((f) => f()));

/** A live process that is not an agent: a node child idling until it is killed. */
async function bystander(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ["-e", "process.stdout.write('up\\n'); setInterval(() => {}, 1 << 30)"], {
    detached: true,
    stdio: ["ignore", "pipe", "ignore"],
  });
  cleanup.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  // Its first line says it is running (and its /proc entry is complete).
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`bystander exited (${code})`)));
  });
  return child as ChildProcess & { pid: number };
}

function ledger(): SqliteAgentProcessLedger {
  const dir = mkdtempSync(join(tmpdir(), "coffer-reaper-"));
  const db = openDatabase(join(dir, "coffer.db"));
  cleanup.push(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return new SqliteAgentProcessLedger(db);
}

function exited(child: ChildProcess): Promise<NodeJS.Signals | number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.signalCode ?? child.exitCode);
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code)));
}

acceptance("024-proof-holes", "a ledger row whose pid now belongs to another process (another start time) is never signalled", async () => {
  const reused = await bystander();
  const stat = procStat(reused.pid)!;
  const rows = ledger();
  // What a killed daemon left: its agent had this pid, but started at another moment.
  rows.record({ mark: "gone-agent", pid: reused.pid, pgid: reused.pid, agentKey: "claude_code", conversationId: null, startTicks: stat.startTicks - 7 });
  expect(await reapOrphans(rows, QUIET, { termGraceMs: 200 })).toBe(0);
  expect(isAlive(procStat(reused.pid))).toBe(true);
  expect(rows.list()).toEqual([]); // the row is spent either way
});

test("the same row with the recorded start time is reaped (the check above is not vacuous)", async () => {
  const agent = await bystander();
  const rows = ledger();
  rows.record({ mark: "left-agent", pid: agent.pid, pgid: agent.pid, agentKey: "claude_code", conversationId: null, startTicks: procStat(agent.pid)!.startTicks });
  expect(await reapOrphans(rows, QUIET, { termGraceMs: 2000 })).toBe(1);
  expect(await exited(agent)).toBe("SIGTERM");
});

test("a row without a recorded start time is matched by its environment marker only", async () => {
  const reused = await bystander();
  const rows = ledger();
  rows.record({ mark: "old-row", pid: reused.pid, pgid: reused.pid, agentKey: "codex", conversationId: null, startTicks: null });
  expect(await reapOrphans(rows, QUIET, { termGraceMs: 200 })).toBe(0);
  expect(isAlive(procStat(reused.pid))).toBe(true);
});
