import type { ContextUsageEvent, ContextUsageOut } from "@coffer/protocol";

export interface StoredHold {
  readonly conversationId: string;
  /** When the hold lifts (ms). */
  readonly until: number;
}

/** Where plan-limit holds outlive the process (SQLite), so a restart re-arms them. */
export interface HoldStore {
  save(conversationId: string, until: number, now: number): void;
  remove(conversationId: string): void;
  list(): StoredHold[];
}

/** Where each conversation's latest context usage is kept (SQLite; the header's gauge reads it). */
export interface ContextUsageStore {
  /** A report without a window keeps the window known from before. */
  record(conversationId: string, usage: ContextUsageEvent, now: number): void;
  get(conversationId: string): ContextUsageOut | null;
}
