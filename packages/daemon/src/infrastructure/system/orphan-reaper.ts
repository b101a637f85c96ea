/**
 * After a `kill -9` of the daemon its agent processes are re-parented to init and carry on
 * (tools included, with full permissions). Each agent process is written down when it
 * starts (AgentProcessLedger); the next daemon reaps whatever the last one left: every
 * process that is provably ours — the recorded pid with the recorded start time, or any
 * process carrying the recorded marker in its environment (the agent's tools inherit it) —
 * gets SIGTERM, then SIGKILL after a grace. Nothing unverified is ever signalled.
 */
import type { Logger } from "../../application/ports.js";
import type { AgentProcessLedger, AgentProcessRecord } from "../../application/warm-pool/warm-pool-ports.js";
import { allPids, hasEnvMarker, isAlive, procStat, type ProcStat } from "./proc-table.js";

/** The environment variable each agent process (and so each tool it runs) carries. */
export const AGENT_MARK_ENV = "COFFER_AGENT_MARK";

export interface ReapOptions {
  /** How long SIGTERM gets before SIGKILL. */
  readonly termGraceMs?: number;
}

/** Reaps what a previous daemon left; resolves with how many processes were signalled. */
export async function reapOrphans(ledger: AgentProcessLedger, logger: Logger, options: ReapOptions = {}): Promise<number> {
  const records = ledger.list();
  if (records.length === 0) return 0; // the common case costs one query
  const stats = allPids()
    .map(procStat)
    .filter(isAlive)
    .filter((s) => s.pid !== process.pid);
  const ours = new Map<number, ProcStat>();
  for (const record of records) for (const stat of stats) if (belongsTo(stat, record)) ours.set(stat.pid, stat);
  // A group one of our processes still belongs to is ours (a pgid is not reused while in use):
  // this takes a tool that dropped the marker from its environment.
  const groups = new Set(records.map((r) => r.pgid).filter((g) => [...ours.values()].some((s) => s.pgid === g)));
  for (const stat of stats) if (groups.has(stat.pgid)) ours.set(stat.pid, stat);
  const victims = [...ours.values()];
  if (victims.length) {
    logger.warn("reaping agent processes a previous daemon left running", {
      processes: victims.length,
      agents: [...new Set(records.map((r) => r.agentKey))],
    });
    signal(victims, "SIGTERM");
    const deadline = Date.now() + (options.termGraceMs ?? 2000);
    while (Date.now() < deadline && victims.some(stillSame)) await pause(25);
    signal(victims.filter(stillSame), "SIGKILL");
  }
  for (const record of records) ledger.forget(record.mark);
  return victims.length;
}

function belongsTo(stat: ProcStat, record: AgentProcessRecord): boolean {
  if (stat.pid === record.pid && record.startTicks !== null && stat.startTicks === record.startTicks) return true;
  return hasEnvMarker(stat.pid, AGENT_MARK_ENV, record.mark);
}

/** The same process (pid and start time) and not yet dead: a reused pid is someone else's. */
function stillSame(victim: ProcStat): boolean {
  const now = procStat(victim.pid);
  return isAlive(now) && now.startTicks === victim.startTicks;
}

function signal(victims: readonly ProcStat[], sig: NodeJS.Signals): void {
  for (const v of victims) {
    if (!stillSame(v)) continue;
    try {
      process.kill(v.pid, sig);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
    }
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
