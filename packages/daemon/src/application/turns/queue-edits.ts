import type { EditHoldOut } from "@coffer/protocol";
import { PendingNotFound } from "../../domain/errors.js";
import type { ConversationStore, PendingStore } from "../ports.js";
import type { EditHolds } from "./edit-holds.js";
import { requireConversation } from "./require-conversation.js";

export interface QueueEditsDeps {
  readonly conversations: Pick<ConversationStore, "getConversation">;
  readonly pending: Pick<PendingStore, "listPending">;
  readonly edits: EditHolds;
  readonly publishQueue: (conversationId: string) => void;
  readonly advance: (conversationId: string) => Promise<void>;
}

/**
 * Editing a queued message (issue 22 B) as the surfaces ask for it: take, renew and release an
 * edit hold. The leases themselves are EditHolds; saving an edit goes through TurnQueue.set.
 */
export class QueueEdits {
  constructor(private readonly deps: QueueEditsDeps) {}

  /**
   * Take or renew an edit hold on a queued message (`by`: the surface the caller verified). The
   * queue does not start it, nor anything behind it, until the hold is released (a save, a
   * cancel) or lapses. Another editor's hold refuses it with PENDING_BEING_EDITED.
   */
  hold(conversationId: string, pendingId: string, by: string, holdId?: string): EditHoldOut {
    const { edits } = this.deps;
    requireConversation(this.deps.conversations, conversationId);
    if (!this.deps.pending.listPending(conversationId).some((r) => r.id === pendingId)) throw new PendingNotFound(conversationId, pendingId);
    const wasHeld = edits.isHeld(pendingId);
    const taken = edits.take(conversationId, pendingId, by, holdId);
    // Only a new hold changes what the queue shows: a renewal every few seconds is not news.
    if (!wasHeld) this.deps.publishQueue(conversationId);
    return { hold_id: taken.holdId, expires_at: new Date(taken.expiresAt).toISOString(), lease_ms: edits.leaseMs };
  }

  /** End an edit hold (cancelled, or its page is leaving); the queue runs on. One already gone is fine. */
  async release(conversationId: string, pendingId: string, holdId: string): Promise<void> {
    requireConversation(this.deps.conversations, conversationId);
    if (this.deps.edits.release(holdId, pendingId) === null) return;
    this.deps.publishQueue(conversationId);
    await this.deps.advance(conversationId);
  }

  /** Shutdown: no lease outlives the process (a restart pauses every queue anyway). */
  stopTimers(): void {
    this.deps.edits.stopTimers();
  }
}
