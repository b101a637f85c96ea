import type { QueueHold } from "@coffer/protocol";
import type { HoldStore, StoredHold } from "./store-ports.js";

export type { HoldStore } from "./store-ports.js";

/** Holds in memory only: what a test engine without a database uses. */
export class MemoryHoldStore implements HoldStore {
  private readonly rows = new Map<string, number>();
  save(conversationId: string, until: number): void {
    this.rows.set(conversationId, until);
  }
  remove(conversationId: string): void {
    this.rows.delete(conversationId);
  }
  list(): StoredHold[] {
    return [...this.rows].map(([conversationId, until]) => ({ conversationId, until }));
  }
}

/**
 * Queues parked on a plan limit until its reset (issue 14, part 4). Each hold is stored, so
 * a restart re-arms it (`rearm`); one whose reset passed while the daemon was down fires at
 * once. The timer calls `onReset`; the owner lifting a hold earlier clears it.
 */
export class QueueHolds {
  private readonly holds = new Map<string, { until: Date; timer: NodeJS.Timeout }>();

  constructor(
    private readonly now: () => number,
    private readonly onReset: (conversationId: string) => void,
    private readonly store: HoldStore = new MemoryHoldStore(),
  ) {}

  park(conversationId: string, until: Date): void {
    this.clear(conversationId);
    this.store.save(conversationId, until.getTime(), this.now());
    this.arm(conversationId, until);
  }

  /** At start: every stored hold gets its timer again (a passed reset lifts at once). Returns how many. */
  rearm(): number {
    const stored = this.store.list();
    for (const h of stored) if (!this.holds.has(h.conversationId)) this.arm(h.conversationId, new Date(h.until));
    return stored.length;
  }

  /** Returns whether there was a hold to lift. */
  clear(conversationId: string): boolean {
    const hold = this.holds.get(conversationId);
    if (!hold) return false;
    clearTimeout(hold.timer);
    this.holds.delete(conversationId);
    this.store.remove(conversationId);
    return true;
  }

  get(conversationId: string): QueueHold | null {
    const hold = this.holds.get(conversationId);
    return hold ? { reason: "plan_limit", until: hold.until.toISOString() } : null;
  }

  /** Shutdown: the timers stop; the stored holds stay for the next start. */
  stopTimers(): void {
    for (const hold of this.holds.values()) clearTimeout(hold.timer);
    this.holds.clear();
  }

  private arm(conversationId: string, until: Date): void {
    const delay = Math.max(0, until.getTime() - this.now());
    const timer = setTimeout(() => {
      this.holds.delete(conversationId);
      this.store.remove(conversationId);
      this.onReset(conversationId);
    }, delay);
    timer.unref();
    this.holds.set(conversationId, { until, timer });
  }
}
