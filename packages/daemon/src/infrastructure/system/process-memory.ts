import { readdirSync } from "node:fs";
import type { ProcessMemory, SelfFootprint } from "../../application/warm-pool/warm-pool-ports.js";
import { groupMembers, procStat, residentBytes } from "./proc-table.js";

/**
 * Resident memory from /proc/<pid>/status (VmRSS), for a process and for its process group
 * (an agent leads its own group, so the group is it plus the tools it runs). One /proc scan
 * per process asked about: a few ms for the handful a warm pool holds.
 */
export const procProcessMemory: ProcessMemory = {
  resident(pid) {
    const self = residentBytes(pid);
    if (self === null) return null;
    if (procStat(pid)?.pgid !== pid) return { selfBytes: self, groupBytes: self };
    const others = groupMembers(pid).filter((m) => m.pid !== pid);
    return { selfBytes: self, groupBytes: others.reduce((sum, m) => sum + (residentBytes(m.pid) ?? 0), self) };
  },
};

/** This process: V8's own figures, and its open descriptors from /proc/self/fd (null without /proc). */
export const selfFootprint: SelfFootprint = {
  read() {
    const { rss, heapUsed } = process.memoryUsage();
    let openFds: number | null;
    try {
      openFds = readdirSync("/proc/self/fd").length;
    } catch {
      openFds = null;
    }
    return { rssBytes: rss, heapUsedBytes: heapUsed, openFds };
  },
};
