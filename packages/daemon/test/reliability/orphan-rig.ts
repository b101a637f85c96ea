/**
 * What the orphan-reaping tests share: reading processes from /proc (what the OS publishes,
 * so no sleeps), the agent process ledger as stored, and a real agent rig plus data dir that
 * kill whatever the test started, whatever its outcome.
 */
import { readdirSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll } from "vitest";
import { makeAgentRig, type AgentRig } from "../fakes/agent-rig.js";
import { makeHome } from "../support/test-daemon.js";

export function stat(pid: number): { ppid: number; state: string } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0]!, ppid: Number(fields[1]) };
  } catch {
    return null;
  }
}

/** Alive = listed in /proc and not a zombie (an exited child its new parent has not reaped yet). */
export function alive(pid: number): boolean {
  const s = stat(pid);
  return s !== null && s.state !== "Z" && s.state !== "X";
}

export function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}

export const pids = (): number[] => readdirSync("/proc").filter((n) => /^\d+$/.test(n)).map(Number);

/** Waits for a condition the OS publishes only in /proc (a process appearing), checking every 20 ms. */
export async function until<T>(what: string, probe: () => T | null | undefined | false, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const got = probe();
    if (got) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The agent process ledger as stored in the data dir's database. */
export function ledgerRows(home: string): { pid: number; pgid: number; agent_key: string }[] {
  const db = new Database(join(home, "coffer.db"), { readonly: true });
  try {
    return db.prepare("SELECT pid, pgid, agent_key FROM agent_processes").all() as { pid: number; pgid: number; agent_key: string }[];
  } finally {
    db.close();
  }
}

export interface OrphanRig<K extends "claude_code" | "codex"> {
  home: string;
  rig: AgentRig<K>;
  /** Pids the test saw start: killed after the file, whatever happened. */
  readonly leftovers: number[];
}

/** A data dir and a real agent rig for the file's tests; nothing they started outlives them. */
export function orphanRig<K extends "claude_code" | "codex">(agent: K): OrphanRig<K> {
  const state = { home: "", rig: undefined as unknown as AgentRig<K>, leftovers: [] as number[] };
  beforeAll(async () => {
    state.home = await makeHome();
    state.rig = await makeAgentRig(agent);
  }, 30_000);
  afterAll(async () => {
    for (const pid of state.leftovers) if (alive(pid)) process.kill(pid, "SIGKILL");
    await state.rig?.close();
    if (state.home) await rm(state.home, { recursive: true, force: true });
  });
  return state;
}
