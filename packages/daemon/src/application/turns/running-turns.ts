import type { ActiveTurn } from "./active-turn.js";

/**
 * Per conversation at most one turn in flight: the slot every room reads (the queue to know
 * whether to start, steering to reach the turn, the adapter's `ask` to find its questions).
 * Only TurnLifecycle claims and frees a slot.
 */
export class RunningTurns {
  private readonly turns = new Map<string, ActiveTurn>();

  get(conversationId: string): ActiveTurn | undefined {
    return this.turns.get(conversationId);
  }

  has(conversationId: string): boolean {
    return this.turns.has(conversationId);
  }

  get count(): number {
    return this.turns.size;
  }

  all(): ActiveTurn[] {
    return [...this.turns.values()];
  }

  claim(turn: ActiveTurn): void {
    this.turns.set(turn.conversationId, turn);
  }

  /** Frees the slot only if this turn still holds it. */
  free(turn: ActiveTurn): void {
    if (this.turns.get(turn.conversationId) === turn) this.turns.delete(turn.conversationId);
  }
}
