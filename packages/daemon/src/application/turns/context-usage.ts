import type { ContextUsageEvent, ContextUsageOut } from "@coffer/protocol";
import type { ContextUsageStore } from "./store-ports.js";

export type { ContextUsageStore } from "./store-ports.js";

/** In memory, for an engine without a database (unit tests). */
export class MemoryContextStore implements ContextUsageStore {
  private readonly rows = new Map<string, ContextUsageOut>();
  record(conversationId: string, usage: ContextUsageEvent, now: number): void {
    const before = this.rows.get(conversationId);
    this.rows.set(conversationId, {
      used_tokens: usage.used_tokens,
      window_tokens: usage.window_tokens ?? before?.window_tokens ?? null,
      updated_at: new Date(now).toISOString(),
    });
  }
  get(conversationId: string): ContextUsageOut | null {
    return this.rows.get(conversationId) ?? null;
  }
}
