/**
 * The warm agent processes, as the application's pool policy sees them. Infrastructure
 * (each agent's adapter) starts and ends the processes; the pool decides how many stay warm
 * and which one goes (docs/decisions.md, "Speed and footprint (issue 16)").
 */

/** One warm agent process, implemented by the agent that started it. */
export interface WarmProcess {
  readonly agentKey: string;
  /** The conversation it serves; null while it is a spare started for a draft. */
  readonly conversationId: string | null;
  readonly pid: number | undefined;
  /** A turn runs on it (or waits on the owner's answer): never evicted. */
  readonly busy: boolean;
  /** Ends the process; resolves once it has gone. The next turn resumes its session. */
  evict(): Promise<void>;
}

/** Why a slot is wanted: a turn always gets one, a pre-warm only within the cap. */
export type WarmPurpose = "turn" | "prewarm";

/** Room for one process, reserved before it starts. */
export interface WarmSlot {
  /** The process started in this slot: the pool counts it from now on. */
  fill(process: WarmProcess): WarmLease;
  /** Nothing was started after all. */
  cancel(): void;
}

/** The pool's handle on one counted process. */
export interface WarmLease {
  /** Used now (a turn starts on it, or the owner is typing to it): least-recently-used order. */
  touch(): void;
  /** A turn ended on it: the pool trims back to its cap, least recently used idle first. */
  idle(): void;
  /** The process has gone (closed, evicted, crashed): it no longer counts. */
  gone(): void;
}

export interface WarmProcesses {
  /**
   * Room for one more process. At the cap the least recently used idle process is evicted
   * (awaited, so the new one never overlaps it). When every warm process is busy a turn still
   * gets a slot (the owner's work is never refused for memory; the pool trims as turns end),
   * a pre-warm gets null.
   */
  slot(purpose: WarmPurpose): Promise<WarmSlot | null>;
}

/** One row of the agent process ledger: enough to find and verify a process after a crash. */
export interface AgentProcessRecord {
  /** A random marker put in the process's environment; its tools inherit it. */
  readonly mark: string;
  readonly pid: number;
  /** The process group it leads (spawned detached): a kill of -pgid takes its tools. */
  readonly pgid: number;
  readonly agentKey: string;
  readonly conversationId: string | null;
  /** Its start time in clock ticks since boot (/proc/<pid>/stat field 22): a reused pid differs. */
  readonly startTicks: number | null;
}

/**
 * Where each agent process this daemon starts is written down (SQLite) until it exits, so
 * the next daemon can reap what a killed one left behind.
 */
export interface AgentProcessLedger {
  record(process: AgentProcessRecord): void;
  forget(mark: string): void;
  list(): AgentProcessRecord[];
}

/** Memory of a process as the OS reports it (Linux: /proc). */
export interface ProcessMemory {
  /** Its own resident bytes and its process group's (it and its tools); null when gone or unknown. */
  resident(pid: number): { readonly selfBytes: number; readonly groupBytes: number } | null;
}

/** The database's files on disk. */
export interface DatabaseFiles {
  sizes(): { readonly fileBytes: number; readonly walBytes: number };
}

/** The daemon's own process, as the OS and V8 report it. */
export interface SelfFootprint {
  read(): { readonly rssBytes: number; readonly heapUsedBytes: number; readonly openFds: number | null };
}
