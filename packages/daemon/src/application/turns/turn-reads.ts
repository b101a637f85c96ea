import { PENDING_PREVIEW_CHARS, type AgentLimitsOut, type ConversationContextOut, type PendingEditing, type PendingQueueOut, type QueueChangedEvent, type QueueHold } from "@coffer/protocol";
import type { Conversation } from "../../domain/conversation.js";
import type { PlanLimitsBook } from "../limits/plan-limits-book.js";
import type { Clock, ConversationStore, PendingStore } from "../ports.js";
import { toPendingItems, toPendingPreviews } from "../presenters.js";
import type { BusHub } from "./bus-hub.js";
import type { ContextUsageStore } from "./context-usage.js";
import type { BusSubscriber } from "./live-bus.js";
import { requireConversation } from "./require-conversation.js";

export interface TurnReadsDeps {
  readonly conversations: Pick<ConversationStore, "getConversation">;
  readonly pending: Pick<PendingStore, "listPending" | "listPendingPreviews">;
  readonly hub: BusHub;
  readonly clock: Clock;
  readonly limits: PlanLimitsBook;
  readonly contextUsage: ContextUsageStore;
  /** Who edits which queued message (EditHolds). */
  readonly edits: { mark(pendingId: string): PendingEditing | null };
  /** Each queue's plan-limit hold (PlanLimitParking). */
  readonly holds: { get(conversationId: string): QueueHold | null };
}

/**
 * The read side of the turns: the queue as every surface sees it (GET …/pending and the
 * `queue_changed` frame, one shape), the context gauge, the plan limits, and the live bus.
 */
export class TurnReads {
  constructor(private readonly deps: TurnReadsDeps) {}

  pending(conversationId: string): PendingQueueOut {
    const conv = requireConversation(this.deps.conversations, conversationId);
    return { pending: this.marked(toPendingItems(this.deps.pending.listPending(conversationId), this.deps.clock.now())), paused: conv.queuePaused, ...this.holdField(conversationId) };
  }

  /** How full the conversation's context was after its latest turn that reported it. */
  contextOf(conversationId: string): ConversationContextOut {
    requireConversation(this.deps.conversations, conversationId);
    return { context: this.deps.contextUsage.get(conversationId) };
  }

  /** An agent's plan limits as they stand now (a window past its reset reads unknown). */
  limitsOf(agentKey: string): AgentLimitsOut | null {
    return this.deps.limits.get(agentKey, this.deps.clock.now());
  }

  /** Attach to the conversation's live bus (replay, then live). Returns the detach function. */
  subscribe(conversationId: string, subscriber: BusSubscriber, cursor?: string): () => void {
    requireConversation(this.deps.conversations, conversationId);
    return this.deps.hub.subscribe(conversationId, subscriber, cursor, (bus) => {
      if (!bus.hasQueueSnapshot) bus.publish(this.queueFrame(requireConversation(this.deps.conversations, conversationId)));
    });
  }

  /** Publish the queue as it is now to whoever is watching. */
  publishQueue(conversationId: string): void {
    const conv = this.deps.conversations.getConversation(conversationId);
    if (!conv) return;
    this.deps.hub.publishIfLive(conversationId, this.queueFrame(conv));
  }

  private queueFrame(conv: Conversation): QueueChangedEvent {
    return {
      type: "queue_changed",
      pending: this.marked(toPendingPreviews(this.deps.pending.listPendingPreviews(conv.id, PENDING_PREVIEW_CHARS), this.deps.clock.now())),
      paused: conv.queuePaused,
      ...this.holdField(conv.id),
    };
  }

  /** Each item someone is editing carries `editing`; the others read exactly as before. */
  private marked<T extends { readonly id: string }>(items: T[]): T[] {
    return items.map((item) => {
      const editing = this.deps.edits.mark(item.id);
      return editing ? { ...item, editing } : item;
    });
  }

  /** `hold` only while there is one, so an unheld queue reads exactly as before. */
  private holdField(conversationId: string): { hold?: QueueHold } {
    const hold = this.deps.holds.get(conversationId);
    return hold ? { hold } : {};
  }
}
