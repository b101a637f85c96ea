import type { PendingEditing } from "@coffer/protocol";
import { PendingBeingEdited } from "../../domain/errors.js";

/** COFFER_QUEUE_EDIT_LEASE_MS's default: the page renews every quarter of it (5 s). */
export const DEFAULT_EDIT_LEASE_MS = 20_000;

interface Hold {
  readonly holdId: string;
  readonly conversationId: string;
  readonly pendingId: string;
  readonly by: string;
  readonly since: number;
  expiresAt: number;
  timer: NodeJS.Timeout;
}

export interface TakenHold {
  readonly holdId: string;
  readonly expiresAt: number;
}

/**
 * Edit holds on queued messages (issue 22 B): while a surface edits a queued message the queue
 * stops in front of it. Each hold is a lease the editor renews; one not renewed lapses by
 * itself (`onLapse`), so a closed tab or a lost network never leaves a queue stuck. In memory
 * only: a restart pauses every queue anyway (TurnLifecycle.recover), and no editor survives it.
 */
export class EditHolds {
  private readonly byPending = new Map<string, Hold>();

  constructor(
    private readonly now: () => number,
    readonly leaseMs: number,
    private readonly newId: () => string,
    private readonly onLapse: (conversationId: string, pendingId: string) => void,
  ) {}

  /**
   * Take a hold, or renew `holdId`. Another editor's live hold refuses it (PENDING_BEING_EDITED,
   * naming that editor); a lapsed one of ours is simply taken again under a new id.
   */
  take(conversationId: string, pendingId: string, by: string, holdId?: string): TakenHold {
    const current = this.byPending.get(pendingId);
    if (current && current.holdId !== holdId) {
      throw new PendingBeingEdited(conversationId, pendingId, current.by, new Date(current.expiresAt).toISOString());
    }
    if (current) {
      current.expiresAt = this.now() + this.leaseMs;
      current.timer.refresh();
      return { holdId: current.holdId, expiresAt: current.expiresAt };
    }
    const hold: Hold = {
      holdId: this.newId(),
      conversationId,
      pendingId,
      by,
      since: this.now(),
      expiresAt: this.now() + this.leaseMs,
      timer: setTimeout(() => {
        if (this.byPending.get(pendingId) !== hold) return;
        this.byPending.delete(pendingId);
        this.onLapse(conversationId, pendingId);
      }, this.leaseMs),
    };
    hold.timer.unref();
    this.byPending.set(pendingId, hold);
    return { holdId: hold.holdId, expiresAt: hold.expiresAt };
  }

  /** End the hold with this id (on this message, when given). Returns the conversation it held, or null when it was already gone. */
  release(holdId: string, pendingId?: string): string | null {
    for (const hold of pendingId ? [this.byPending.get(pendingId)] : this.byPending.values()) {
      if (!hold || hold.holdId !== holdId) continue;
      this.drop(hold);
      return hold.conversationId;
    }
    return null;
  }

  /** The queue's messages left it (ran, dropped): their holds end with them, quietly. */
  retain(conversationId: string, queued: ReadonlySet<string>): void {
    for (const hold of [...this.byPending.values()]) {
      if (hold.conversationId === conversationId && !queued.has(hold.pendingId)) this.drop(hold);
    }
  }

  /** PENDING_BEING_EDITED while someone edits it (what "Send now" from another surface gets). */
  refuseIfHeld(conversationId: string, pendingId: string): void {
    const hold = this.byPending.get(pendingId);
    if (hold) throw new PendingBeingEdited(conversationId, pendingId, hold.by, new Date(hold.expiresAt).toISOString());
  }

  isHeld(pendingId: string): boolean {
    return this.byPending.has(pendingId);
  }

  /** What a queue listing says about the message: who edits it, since when. */
  mark(pendingId: string): PendingEditing | null {
    const hold = this.byPending.get(pendingId);
    return hold ? { by: hold.by, since: new Date(hold.since).toISOString() } : null;
  }

  stopTimers(): void {
    for (const hold of this.byPending.values()) clearTimeout(hold.timer);
    this.byPending.clear();
  }

  private drop(hold: Hold): void {
    clearTimeout(hold.timer);
    this.byPending.delete(hold.pendingId);
  }
}
