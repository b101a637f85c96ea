import type { ConversationListEvent } from "@coffer/protocol";

export type ListListener = (event: ConversationListEvent) => void;

/** Fan-out of conversation-list changes to every open history list (no replay: clients refetch). */
export class ConversationListEvents {
  private readonly listeners = new Set<ListListener>();

  get listenerCount(): number {
    return this.listeners.size;
  }

  listen(listener: ListListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: ConversationListEvent): void {
    for (const l of this.listeners) l(event);
  }
}
