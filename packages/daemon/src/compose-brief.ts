import type { OwnerBriefEvent } from "@coffer/protocol";
import type { AgentRegistry } from "./application/agent-registry.js";
import type { AuditSink } from "./application/audit-ports.js";
import { LIST_SIZE } from "./application/channels/chat-command-runner.js";
import type { ConversationService } from "./application/conversations.js";
import type { ConversationStore, Logger } from "./application/ports.js";
import { MorningBrief } from "./application/schedules/morning-brief.js";
import type { Scheduler } from "./application/schedules/scheduler.js";
import type { AlarmClock } from "./application/timing/alarm-ports.js";
import type { QuestionDesk } from "./application/turns/question-desk.js";
import type { TurnReads } from "./application/turns/turn-reads.js";
import { cronerTimetable } from "./infrastructure/cron/croner-timetable.js";
import type { Db } from "./infrastructure/sqlite/database.js";
import { SqliteBriefLog } from "./infrastructure/sqlite/stores/sqlite-brief-log.js";
import { SqliteSettingsStore } from "./infrastructure/sqlite/stores/sqlite-settings-store.js";

export interface BriefWiring {
  readonly db: Db;
  readonly alarms: AlarmClock;
  readonly zone: string;
  readonly audit: AuditSink;
  readonly logger: Logger;
  readonly scheduler: Scheduler;
  readonly registry: AgentRegistry;
  readonly conversations: ConversationService;
  readonly conversationStore: Pick<ConversationStore, "getConversation">;
  readonly reads: Pick<TurnReads, "limitsOf" | "pending">;
  readonly questions: Pick<QuestionDesk, "openAll">;
  /** To each running channel's paired owner; how many chats (ChannelAlerts.toOwners). */
  readonly phone: (text: string) => number;
  readonly page: (event: OwnerBriefEvent) => void;
}

/** The morning brief (issue 27): its sources are records Coffer keeps anyway; it rides the schedules' one alarm. */
export function composeBrief(w: BriefWiring): MorningBrief {
  const log = new SqliteBriefLog(w.db);
  return new MorningBrief({
    store: new SqliteSettingsStore(w.db),
    alarm: w.scheduler,
    alarms: w.alarms,
    cron: cronerTimetable(),
    zone: w.zone,
    audit: w.audit,
    logger: w.logger,
    deliver: { phone: w.phone, page: w.page },
    sources: {
      turnsSince: (since) => log.turnsSince(since),
      scheduleRunsSince: (since) => log.scheduleRunsSince(since),
      queues: () =>
        log.queuedConversations().map((id) => {
          const q = w.reads.pending(id);
          const held = q.hold ? `plan limit until ${q.hold.until}` : q.paused ? "paused" : null;
          return { conversationId: id, count: q.pending.length, held };
        }),
      openQuestions: () => w.questions.openAll().map((q) => ({ conversationId: q.conversation_id, text: q.questions[0]?.text ?? "", askedAt: q.asked_at })),
      limits: () =>
        w.registry.keys().flatMap((key) => {
          const limits = w.reads.limitsOf(key);
          return limits ? [{ agent: w.registry.find(key)?.displayName ?? key, windows: limits.windows }] : [];
        }),
      title: (id) => w.conversationStore.getConversation(id)?.title ?? null,
      // The numbers a chat's /open takes before it has seen a /list (chat-command-runner.ts).
      openNumbers: () => new Map(w.conversations.list({ limit: LIST_SIZE }).conversations.map((c, i) => [c.id, i + 1])),
    },
  });
}
