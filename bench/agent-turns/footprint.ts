/** Resident memory of a process, from /proc (Linux): what the owner's machine actually holds. */
import { readFileSync } from "node:fs";

export function rssMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null; // gone
  }
}
