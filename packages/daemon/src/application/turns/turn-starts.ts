import type { Conversation } from "../../domain/conversation.js";

/** Told, synchronously, that a turn began in a conversation (after its `turn_start` is on the bus). */
export type TurnStartListener = (conversation: Conversation) => void;

/**
 * The engine's turn-started hook. A surface that relays turns (an IM channel) hears here that a
 * turn began, straight from the engine, instead of inferring it from the page's conversation-list
 * stream. The turns own it and other folders listen, so the tie points one way: channels → turns.
 * A listener that throws is its own problem: it never breaks the turn (or the other listeners).
 */
export class TurnStarts {
  private readonly listeners = new Set<TurnStartListener>();

  listen(listener: TurnStartListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  started(conversation: Conversation): void {
    for (const listener of this.listeners) {
      try {
        listener(conversation);
      } catch {
        // A broken listener must not fail a turn that has already begun.
      }
    }
  }
}
