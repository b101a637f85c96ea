/**
 * What Linux's /proc says about a process: its group, start time, environment marker and
 * memory. Each read tolerates the process being gone (it may exit between two reads). On a
 * system without /proc every answer is "unknown", and orphan reaping does nothing.
 */
import { readdirSync, readFileSync } from "node:fs";

export interface ProcStat {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  /** R, S, D, … ; Z (zombie) and X are dead: exited, waiting for a parent to reap them. */
  readonly state: string;
  /** Start time in clock ticks since boot: with the pid, it names one process for good. */
  readonly startTicks: number;
}

/** /proc/<pid>/stat, or null when the process is gone. */
export function procStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces or ')': read after the last ')'.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // fields[0] is field 3 (state): ppid is field 4, pgrp field 5, starttime field 22.
  const ppid = Number(fields[1]);
  const pgid = Number(fields[2]);
  const startTicks = Number(fields[19]);
  if (!Number.isFinite(pgid) || !Number.isFinite(startTicks)) return null;
  return { pid, ppid, pgid, state: fields[0] ?? "?", startTicks };
}

/** Every process id /proc lists now. */
export function allPids(): number[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  return names.filter((n) => /^\d+$/.test(n)).map(Number);
}

/** Whether the process's environment carries `name=value` (false when unreadable or gone). */
export function hasEnvMarker(pid: number, name: string, value: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(`${name}=${value}`);
  } catch {
    return false;
  }
}

/** Resident memory in bytes (VmRSS), or null when the process is gone. */
export function residentBytes(pid: number): number | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return null;
  }
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(text)?.[1];
  return kb === undefined ? 0 : Number(kb) * 1024; // a zombie has no VmRSS line
}

/** The members of process group `pgid` (one scan of /proc). */
export function groupMembers(pgid: number, pids: readonly number[] = allPids()): ProcStat[] {
  const members: ProcStat[] = [];
  for (const pid of pids) {
    const stat = procStat(pid);
    if (stat?.pgid === pgid) members.push(stat);
  }
  return members;
}

/** Running (not gone, not a zombie). */
export function isAlive(stat: ProcStat | null): stat is ProcStat {
  return stat !== null && stat.state !== "Z" && stat.state !== "X";
}
