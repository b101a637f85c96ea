/**
 * Bridges the app-server's push-style notifications to a turn's pull-style async
 * iterator: what arrives while the turn is busy yielding waits here, in order.
 */
export type InboxItem =
  | { readonly kind: "notification"; readonly method: string; readonly params: unknown }
  | { readonly kind: "exit"; readonly error: Error };

export interface ThreadListener {
  notification(method: string, params: unknown): void;
  /** The app-server process is gone; nothing more will arrive. */
  exited(error: Error): void;
}

export class TurnInbox implements ThreadListener, AsyncIterable<InboxItem> {
  private readonly items: InboxItem[] = [];
  private wake: (() => void) | null = null;

  notification(method: string, params: unknown): void {
    this.push({ kind: "notification", method, params });
  }

  exited(error: Error): void {
    this.push({ kind: "exit", error });
  }

  async *[Symbol.asyncIterator](): AsyncIterator<InboxItem> {
    for (;;) {
      const item = this.items.shift();
      if (item) {
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
