import type { AgentRegistry } from "./application/agent-registry.js";
import type { AuditSink } from "./application/audit-ports.js";
import type { ConversationService } from "./application/conversations.js";
import type { Clock, ConversationStore, IdGenerator, Logger } from "./application/ports.js";
import { ScheduleService } from "./application/schedules/schedule-service.js";
import { Scheduler } from "./application/schedules/scheduler.js";
import type { AlarmClock } from "./application/timing/alarm-ports.js";
import type { TurnQueue } from "./application/turns/turn-queue.js";
import type { TurnReads } from "./application/turns/turn-reads.js";
import { DomainError } from "./domain/errors.js";
import { cronerTimetable } from "./infrastructure/cron/croner-timetable.js";
import type { Db } from "./infrastructure/sqlite/database.js";
import { SqliteScheduleStore } from "./infrastructure/sqlite/stores/sqlite-schedule-store.js";

export interface ScheduleWiring {
  readonly db: Db;
  readonly alarms: AlarmClock;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly zone: string;
  readonly audit: AuditSink;
  readonly logger: Logger;
  readonly registry: AgentRegistry;
  readonly conversations: ConversationService;
  readonly conversationStore: Pick<ConversationStore, "getConversation">;
  readonly queue: TurnQueue;
  readonly reads: Pick<TurnReads, "limitsOf">;
}

/** Recurring prompts (issue 27): the store, croner behind its port, the scheduler on the alarm clock, the owner's service. */
export function composeSchedules(w: ScheduleWiring): { service: ScheduleService; scheduler: Scheduler } {
  const store = new SqliteScheduleStore(w.db);
  const cron = cronerTimetable();
  const scheduler = new Scheduler({
    store,
    alarms: w.alarms,
    cron,
    zone: w.zone,
    audit: w.audit,
    logger: w.logger,
    // The typed message's own path: the conversation's queue (start now, or wait behind the running turn).
    send: (conversationId, text, clientId, schedule) => w.queue.send(conversationId, text, clientId, "queue", [], false, schedule),
    agentOf: (id) => w.conversationStore.getConversation(id)?.agentKey ?? null,
    limitsOf: (agent) => w.reads.limitsOf(agent),
    openConversation: async (agent, config, title) => (await w.conversations.create({ agent_key: agent, agent_config: config, title })).id,
  });
  const service = new ScheduleService({
    store,
    scheduler,
    cron,
    zone: w.zone,
    clock: w.clock,
    ids: w.ids,
    audit: w.audit,
    conversationExists: (id) => w.conversationStore.getConversation(id) !== null,
    checkAgent: async (agent, config) => {
      let provider;
      try {
        provider = w.registry.get(agent);
      } catch (err) {
        return { field: "target.fresh.agent", why: err instanceof Error ? err.message : String(err) };
      }
      try {
        await provider.initConversation(config);
        return null;
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        return { field: config.model && /model/i.test(err.message) ? "target.fresh.model" : "target.fresh.cwd", why: err.message };
      }
    },
  });
  return { service, scheduler };
}
