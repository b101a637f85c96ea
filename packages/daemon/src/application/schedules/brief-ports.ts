import type { LimitWindow, OwnerBriefEvent } from "@coffer/protocol";

/** What the brief reads, gathered from Coffer's own records (wired in compose-brief.ts). */
export interface BriefSources {
  /** Turn ends since `since` (the audit's chat_turn_completed rows), oldest first. */
  turnsSince(since: number): readonly { readonly conversationId: string; readonly status: string; readonly stopReason: string | null }[];
  /** Schedule runs since `since` (the audit's schedule_run rows). */
  scheduleRunsSince(since: number): readonly { readonly name: string; readonly status: string }[];
  /** The conversations with queued messages: how many, and why the queue does not move (null: it moves). */
  queues(): readonly { readonly conversationId: string; readonly count: number; readonly held: string | null }[];
  /** Open questions, oldest first. */
  openQuestions(): readonly { readonly conversationId: string; readonly text: string; readonly askedAt: number }[];
  /** Each agent's plan-limit windows as last reported. */
  limits(): readonly { readonly agent: string; readonly windows: readonly LimitWindow[] }[];
  title(conversationId: string): string | null;
  /** /open numbers as the phone's /list numbers the conversations. */
  openNumbers(): ReadonlyMap<string, number>;
}

/** Where a brief goes. */
export interface BriefDelivery {
  /** To each running channel's paired owner chat; how many chats. */
  phone(text: string): number;
  /** The page's alert area (the conversation-list stream). */
  page(event: OwnerBriefEvent): void;
}

/** The stored records the brief counts (infrastructure/sqlite: the audit log and the queue table). */
export interface BriefLog {
  turnsSince(since: number): ReturnType<BriefSources["turnsSince"]>;
  scheduleRunsSince(since: number): ReturnType<BriefSources["scheduleRunsSince"]>;
  /** Conversations with at least one queued message, oldest queue first. */
  queuedConversations(): readonly string[];
}
