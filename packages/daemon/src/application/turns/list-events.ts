import type { ConversationListEvent } from "@coffer/protocol";

export type ListListener = (event: ConversationListEvent) => void;

/** Fan-out of conversation-list changes to every open history list (no replay: clients refetch). */
export class ConversationListEvents {
  private readonly listeners = new Set<ListListener>();

  get listenerCount(): number {
    return this.listeners.size;
  }

  private firstListener: (() => void)[] = [];

  listen(listener: ListListener): () => void {
    this.listeners.add(listener);
    // After the caller's own setup (it may still be wiring its stream): then the waiting hooks run once.
    if (this.firstListener.length) {
      const hooks = this.firstListener.splice(0);
      queueMicrotask(() => hooks.forEach((h) => h()));
    }
    return () => this.listeners.delete(listener);
  }

  /** Runs `hook` once, when the next listener attaches (an alert raised while no page listened). */
  onFirstListener(hook: () => void): () => void {
    this.firstListener.push(hook);
    return () => (this.firstListener = this.firstListener.filter((h) => h !== hook));
  }

  emit(event: ConversationListEvent): void {
    for (const l of this.listeners) l(event);
  }
}
