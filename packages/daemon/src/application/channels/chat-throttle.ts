/**
 * The next moment a chat may be edited: one shared clock per chat, never more often. Every
 * edit into a chat (progress messages, question messages) takes its slot from here.
 */
export class ChatThrottle {
  private readonly next = new Map<string, number>();
  /** When the chat may next be edited (now or later). */
  slot(chatId: string, now: number): number {
    return Math.max(now, this.next.get(chatId) ?? 0);
  }
  used(chatId: string, at: number, intervalMs: number): void {
    this.next.set(chatId, at + intervalMs);
  }
}
