import type { QueueHold } from "@coffer/protocol";

/**
 * Queues parked on a plan limit until its reset (issue 14, part 4). In memory: after a
 * restart every surviving queue comes back paused for the owner anyway (recover()).
 * The timer calls `onReset`; the owner lifting a hold earlier clears it.
 */
export class QueueHolds {
  private readonly holds = new Map<string, { until: Date; timer: NodeJS.Timeout }>();

  constructor(
    private readonly now: () => number,
    private readonly onReset: (conversationId: string) => void,
  ) {}

  park(conversationId: string, until: Date): void {
    this.clear(conversationId);
    const delay = Math.max(0, until.getTime() - this.now());
    const timer = setTimeout(() => {
      this.holds.delete(conversationId);
      this.onReset(conversationId);
    }, delay);
    timer.unref();
    this.holds.set(conversationId, { until, timer });
  }

  /** Returns whether there was a hold to lift. */
  clear(conversationId: string): boolean {
    const hold = this.holds.get(conversationId);
    if (!hold) return false;
    clearTimeout(hold.timer);
    this.holds.delete(conversationId);
    return true;
  }

  get(conversationId: string): QueueHold | null {
    const hold = this.holds.get(conversationId);
    return hold ? { reason: "plan_limit", until: hold.until.toISOString() } : null;
  }

  clearAll(): void {
    for (const id of [...this.holds.keys()]) this.clear(id);
  }
}
