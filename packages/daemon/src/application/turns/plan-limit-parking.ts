import type { QueueHold } from "@coffer/protocol";
import type { TurnAlerts } from "./turn-alert-ports.js";
import type { AuditSink } from "../audit-log.js";
import type { PlanLimitsBook } from "../limits/plan-limits-book.js";
import type { Clock, ConversationStore } from "../ports.js";
import { QueueHolds, type HoldStore } from "./queue-holds.js";

export interface PlanLimitParkingDeps {
  readonly conversations: Pick<ConversationStore, "getConversation" | "setQueuePaused">;
  readonly audit: AuditSink;
  readonly clock: Clock;
  readonly limits: PlanLimitsBook;
  /** Where holds outlive a restart (SQLite); in memory when absent. */
  readonly holdStore?: HoldStore;
  readonly alerts?: TurnAlerts;
  readonly publishQueue: (conversationId: string) => void;
  /** The reset came: unpause the queue and run its head (TurnQueue.resume). */
  readonly resume: (conversationId: string) => Promise<void>;
}

/**
 * Queues parked on a plan limit (issue 14, part 4): a turn ending `plan_limit` holds its queue
 * until the reset the agent reported; the timer or the owner lifts it. Every park and lift is
 * audited and told to the owner's alert surfaces.
 */
export class PlanLimitParking {
  private readonly holds: QueueHolds;

  constructor(private readonly deps: PlanLimitParkingDeps) {
    this.holds = new QueueHolds(() => deps.clock.now(), (id) => {
      if (!deps.conversations.getConversation(id)) return; // deleted while held
      this.record(id, "chat_queue_unparked", { by: "reset" });
      void deps.resume(id).catch(() => undefined); // the conversation may be gone
    }, deps.holdStore);
  }

  /** The queue's hold, while there is one. */
  get(conversationId: string): QueueHold | null {
    return this.holds.get(conversationId);
  }

  /** The agent hit its plan limit: hold the queue until the reset it reported, when it did. */
  park(conversationId: string): void {
    const conv = this.deps.conversations.getConversation(conversationId);
    if (!conv) return;
    const until = this.deps.limits.resetAt(conv.agentKey, this.deps.clock.now());
    if (!until) return;
    this.deps.conversations.setQueuePaused(conversationId, true);
    this.holds.park(conversationId, until);
    this.record(conversationId, "chat_queue_parked", { agent_key: conv.agentKey, until: until.toISOString(), reason: "plan_limit" });
    this.deps.publishQueue(conversationId);
  }

  /** The owner lifts the hold (resume, or a queue saved with resume). Returns whether there was one. */
  lift(conversationId: string): boolean {
    if (!this.holds.clear(conversationId)) return false;
    this.record(conversationId, "chat_queue_unparked", { by: "owner" });
    return true;
  }

  /**
   * After start (and recover): the holds stored before the restart get their timers again; one
   * whose reset passed meanwhile lifts at once and its queue runs. Returns how many.
   */
  rearm(): number {
    return this.holds.rearm();
  }

  /** Shutdown: the timers stop; the stored holds stay for the next start. */
  stopTimers(): void {
    this.holds.stopTimers();
  }

  private record(conversationId: string, action: "chat_queue_parked" | "chat_queue_unparked", details: Record<string, unknown>): void {
    const conv = this.deps.conversations.getConversation(conversationId);
    if (conv && this.deps.alerts) {
      const hold = action === "chat_queue_parked" ? this.holds.get(conversationId) : null;
      this.deps.alerts.holdChanged({ conversation: conv, hold, by: hold ? null : details.by === "owner" ? "owner" : "reset" });
    }
    const actor = action === "chat_queue_parked" ? "agent" : details.by === "owner" ? "user" : "agent";
    this.deps.audit(actor, action, { conversation_id: conversationId, ...details }, this.deps.clock.now());
  }
}
