import type { ConversationOut } from "@coffer/protocol";
import type { Conversation } from "../domain/conversation.js";
import { ConversationNotFound } from "../domain/errors.js";
import type { ConversationStore } from "./ports.js";
import { toConversationOut, type ThreadNouns } from "./presenters.js";
import type { ConversationListEvents } from "./turns/list-events.js";
import type { TurnLifecycle } from "./turns/turn-lifecycle.js";

export interface ConversationViewsDeps {
  readonly store: Pick<ConversationStore, "getConversation">;
  /** Whether a turn runs: the list shows it. */
  readonly turns: Pick<TurnLifecycle, "isRunning">;
  readonly listEvents: ConversationListEvents;
  /** The channel platforms' words for a thread (composed after the chat: looked up when shown). */
  readonly threadNouns?: ThreadNouns;
}

/**
 * How every conversation use case finds a conversation and shows it: one 404, one wire shape,
 * and one "conversation_updated" on the list stream after a change, whichever service made it.
 */
export class ConversationViews {
  constructor(private readonly deps: ConversationViewsDeps) {}

  require(id: string): Conversation {
    const conv = this.deps.store.getConversation(id);
    if (!conv) throw new ConversationNotFound(id);
    return conv;
  }

  out(conv: Conversation): ConversationOut {
    return toConversationOut(conv, this.deps.turns.isRunning(conv.id), this.deps.threadNouns);
  }

  /** The conversation as it is now, told to every open list. */
  changed(id: string): ConversationOut {
    const out = this.out(this.require(id));
    this.deps.listEvents.emit({ type: "conversation_updated", conversation: out });
    return out;
  }
}
