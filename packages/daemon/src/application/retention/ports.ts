/** Small owner settings as JSON values under a key. */
export interface SettingsStore {
  /** undefined when the key was never set. */
  get(key: string): unknown;
  set(key: string, value: unknown, now: number): void;
}

/** The conversations a retention pass may touch (never one with queued messages). */
export interface RetentionCandidates {
  /** Active conversations with no activity since `cutoff` (ms), oldest first. */
  idleSince(cutoff: number, limit: number): string[];
  /** Archived conversations archived before `cutoff` (ms), oldest first. */
  archivedBefore(cutoff: number, limit: number): string[];
  hasQueuedMessages(conversationId: string): boolean;
}
