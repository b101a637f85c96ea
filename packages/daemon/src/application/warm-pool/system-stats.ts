import type { SystemStatsOut, WarmProcessOut } from "@coffer/protocol";
import type { AgentRegistry } from "../agent-registry.js";
import type { BusHub } from "../turns/bus-hub.js";
import type { DatabaseFiles, ProcessMemory, SelfFootprint } from "./warm-pool-ports.js";
import type { WarmPool } from "./warm-pool.js";

export interface SystemStatsDeps {
  readonly pool: WarmPool;
  readonly registry: AgentRegistry;
  readonly hub: BusHub;
  readonly turnsRunning: () => number;
  readonly memory: ProcessMemory;
  readonly database: DatabaseFiles;
  readonly self: SelfFootprint;
  /** The attachments' rows, files and bytes (a function, so this folder need not know the attachments'). */
  readonly attachments: () => SystemStatsOut["attachments"];
}

/** GET /system/stats: what the daemon holds right now, read on demand (nothing is sampled in the background). */
export class SystemStats {
  constructor(private readonly deps: SystemStatsDeps) {}

  read(): SystemStatsOut {
    const { pool, registry, hub, memory, database } = this.deps;
    const warm: WarmProcessOut[] = [];
    for (const p of pool.list()) {
      if (p.pid === undefined) continue; // still starting, or never started
      const rss = memory.resident(p.pid);
      warm.push({
        pid: p.pid,
        agent_key: p.agentKey,
        conversation_id: p.conversationId,
        shared: false,
        busy: p.busy,
        rss_bytes: rss?.selfBytes ?? null,
        group_rss_bytes: rss?.groupBytes ?? null,
        idle_since: p.busy ? null : p.lastUsedAt,
      });
    }
    for (const agentKey of registry.keys()) {
      for (const shared of registry.get(agentKey).sharedProcesses?.() ?? []) {
        const rss = memory.resident(shared.pid);
        warm.push({
          pid: shared.pid,
          agent_key: agentKey,
          conversation_id: null,
          shared: true,
          busy: shared.busy,
          rss_bytes: rss?.selfBytes ?? null,
          group_rss_bytes: rss?.groupBytes ?? null,
          idle_since: null,
        });
      }
    }
    const db = database.sizes();
    const self = this.deps.self.read();
    return {
      warm_processes: warm,
      warm_cap: pool.cap,
      warm_rss_bytes: warm.reduce((sum, p) => sum + (p.group_rss_bytes ?? p.rss_bytes ?? 0), 0),
      turns_running: this.deps.turnsRunning(),
      bus_subscribers: hub.subscriberCount,
      buses: hub.size,
      db: { file_bytes: db.fileBytes, wal_bytes: db.walBytes, total_bytes: db.fileBytes + db.walBytes },
      daemon: { rss_bytes: self.rssBytes, heap_used_bytes: self.heapUsedBytes, open_fds: self.openFds },
      attachments: this.deps.attachments(),
    };
  }
}
