/**
 * The next moment a chat may be edited: one shared clock per rate-limit bucket, never more often.
 * Every edit into a chat (progress messages, question messages) takes its slot from here. A
 * bucket is the chat (Telegram limits a group as a whole, topics included) unless the platform
 * limits each thread on its own (`ChatPlatform.editLimitPerThread`: a Discord thread is a channel
 * with its own bucket), so two conversations in two threads never wait for each other's edits.
 */
export class ChatThrottle {
  private readonly next = new Map<string, number>();

  constructor(private readonly perThread = false) {}

  /** When the chat (or thread) may next be edited (now or later). */
  slot(chatId: string, threadId: string | null, now: number): number {
    return Math.max(now, this.next.get(this.bucket(chatId, threadId)) ?? 0);
  }

  used(chatId: string, threadId: string | null, at: number, intervalMs: number): void {
    this.next.set(this.bucket(chatId, threadId), at + intervalMs);
  }

  private bucket(chatId: string, threadId: string | null): string {
    return this.perThread && threadId ? `${chatId}\u0000${threadId}` : chatId;
  }
}
