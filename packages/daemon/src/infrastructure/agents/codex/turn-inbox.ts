import type { AskOwner } from "./user-input.js";
/**
 * Bridges the app-server's push-style notifications to a turn's pull-style async
 * iterator: what arrives while the turn is busy yielding waits here, in order.
 */
export type InboxItem =
  | { readonly kind: "notification"; readonly method: string; readonly params: unknown }
  | { readonly kind: "exit"; readonly error: Error }
  | { readonly kind: "closed" };

export interface ThreadListener {
  notification(method: string, params: unknown): void;
  /** The app-server process is gone; nothing more will arrive. */
  exited(error: Error): void;
  /** Put the agent's questions to the owner (only the listener of a running turn can). */
  ask?: AskOwner;
}

export class TurnInbox implements ThreadListener, AsyncIterable<Exclude<InboxItem, { kind: "closed" }>> {
  private readonly items: InboxItem[] = [];
  private wake: (() => void) | null = null;

  notification(method: string, params: unknown): void {
    this.push({ kind: "notification", method, params });
  }

  exited(error: Error): void {
    this.push({ kind: "exit", error });
  }

  /** Stop listening: the iteration ends after what already arrived. */
  close(): void {
    this.push({ kind: "closed" });
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Exclude<InboxItem, { kind: "closed" }>> {
    for (;;) {
      const item = this.items.shift();
      if (item) {
        if (item.kind === "closed") return;
        yield item;
        if (item.kind === "exit") return;
        continue;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private push(item: InboxItem): void {
    this.items.push(item);
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
