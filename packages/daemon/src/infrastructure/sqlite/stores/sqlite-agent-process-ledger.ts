import type { AgentProcessLedger, AgentProcessRecord } from "../../../application/warm-pool/warm-pool-ports.js";
import type { Db } from "../database.js";

interface Row {
  mark: string;
  pid: number;
  pgid: number;
  agent_key: string;
  conversation_id: string | null;
  start_ticks: number | null;
}

/** The agent process ledger on SQLite (migration 0011): one row per process while it runs. */
export class SqliteAgentProcessLedger implements AgentProcessLedger {
  private readonly s;

  constructor(db: Db, now: () => number = Date.now) {
    this.s = {
      insert: db.prepare(
        `INSERT OR REPLACE INTO agent_processes (mark, pid, pgid, agent_key, conversation_id, start_ticks, recorded_at)
         VALUES (@mark, @pid, @pgid, @agentKey, @conversationId, @startTicks, @at)`,
      ),
      remove: db.prepare("DELETE FROM agent_processes WHERE mark = ?"),
      all: db.prepare("SELECT mark, pid, pgid, agent_key, conversation_id, start_ticks FROM agent_processes ORDER BY recorded_at"),
      now,
    };
  }

  record(p: AgentProcessRecord): void {
    this.s.insert.run({ ...p, at: this.s.now() });
  }

  forget(mark: string): void {
    this.s.remove.run(mark);
  }

  list(): AgentProcessRecord[] {
    return (this.s.all.all() as Row[]).map((r) => ({
      mark: r.mark,
      pid: r.pid,
      pgid: r.pgid,
      agentKey: r.agent_key,
      conversationId: r.conversation_id,
      startTicks: r.start_ticks,
    }));
  }
}
