import { randomUUID } from "node:crypto";
import type { AgentProcessLedger } from "../../application/warm-pool/warm-pool-ports.js";
import { procStat } from "../system/proc-table.js";
import { agentEnvironment } from "./agent-environment.js";

/** Who a process is for, written in the ledger with it. */
export interface ProcessOwner {
  readonly ledger: AgentProcessLedger;
  readonly agentKey: string;
  readonly conversationId: string | null;
}

/**
 * One agent process's line in the ledger: a fresh marker for its environment (its tools
 * inherit it), written once the process has a pid, removed when it exits. A write that
 * fails (the database already closed at shutdown) must not take the turn down with it.
 */
export class LedgerEntry {
  readonly mark = randomUUID();

  constructor(private readonly owner: ProcessOwner) {}

  /** The environment the child is started with: an agent's (no COFFER_* variable) plus the marker. */
  env(base: Record<string, string | undefined>): Record<string, string> {
    return agentEnvironment(base, this.mark);
  }

  /** The child started (detached: it leads its own process group). */
  started(pid: number | undefined): void {
    if (pid === undefined) return;
    const stat = procStat(pid);
    try {
      this.owner.ledger.record({
        mark: this.mark,
        pid,
        pgid: stat?.pgid ?? pid,
        agentKey: this.owner.agentKey,
        conversationId: this.owner.conversationId,
        startTicks: stat?.startTicks ?? null,
      });
    } catch {
      // nothing to reap later is better than a failed start
    }
  }

  exited(): void {
    try {
      this.owner.ledger.forget(this.mark);
    } catch {
      // the database closed first (shutdown): the row is reaped harmlessly at the next start
    }
  }
}
