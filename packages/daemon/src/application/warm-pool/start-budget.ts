import type { Clock } from "../ports.js";

/**
 * A token bucket over agent process starts that pre-warm may make (docs/decisions.md, "Hardening
 * II"): `burst` at once, refilled at `perMinute`. Pre-warm takes a token before it asks the agent,
 * and gives it back when no process started (already warm, or skipped). Turns never draw on it.
 */
export class StartBudget {
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly clock: Clock,
    private readonly burst: number,
    private readonly perMinute: number,
  ) {
    this.tokens = burst;
    this.refilledAt = clock.now();
  }

  /** One start, if the budget has one now. */
  take(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** A token taken for a start that did not happen. */
  giveBack(): void {
    this.tokens = Math.min(this.burst, this.tokens + 1);
  }

  private refill(): void {
    const now = this.clock.now();
    const elapsed = Math.max(0, now - this.refilledAt);
    this.tokens = Math.min(this.burst, this.tokens + (elapsed * this.perMinute) / 60_000);
    this.refilledAt = now;
  }
}
