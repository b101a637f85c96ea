import type { AlarmClock } from "../timing/alarm-ports.js";
import type { InboundUpdate } from "./ports.js";

/** How long an album waits after its last part before it is sent: Telegram sends the parts within moments. */
export const ALBUM_QUIET_MS = 1500;

/**
 * Telegram sends each part of an album (a media group) as its own update, possibly across
 * polls. Parts gather per chat and group until the album has been quiet for `quietMs`, then go
 * on as one message: the parts in update order, each once (a redelivered part is not added twice).
 */
export class AlbumGatherer {
  private readonly open = new Map<string, { parts: InboundUpdate[]; cancel: () => void }>();

  constructor(
    private readonly alarms: AlarmClock,
    private readonly quietMs: number,
    private readonly complete: (parts: InboundUpdate[]) => void,
  ) {}

  add(update: InboundUpdate & { readonly mediaGroupId: string }): void {
    const key = `${update.chatId}\u0000${update.threadId ?? ""}\u0000${update.mediaGroupId}`;
    const album = this.open.get(key) ?? { parts: [], cancel: () => {} };
    if (!album.parts.some((p) => p.updateId === update.updateId)) album.parts.push(update);
    album.cancel();
    album.cancel = this.alarms.at(this.alarms.now() + this.quietMs, () => this.close(key));
    this.open.set(key, album);
  }

  /** Sends this chat's open albums now: a later message of the chat must not overtake them. */
  closeChat(chatId: string): void {
    for (const key of [...this.open.keys()]) if (key.startsWith(`${chatId}\u0000`)) this.close(key);
  }

  /** The channel stops: open albums are dropped with their timers (docs/decisions.md, "Telegram inbound files"). */
  abandon(): void {
    for (const album of this.open.values()) album.cancel();
    this.open.clear();
  }

  private close(key: string): void {
    const album = this.open.get(key);
    if (!album) return;
    this.open.delete(key);
    album.cancel();
    this.complete([...album.parts].sort((a, b) => compareUpdateIds(a.updateId, b.updateId)));
  }
}

/**
 * Update ids are opaque text, but the platforms that send albums number them upward (Telegram's
 * update_id; snowflakes too): a shorter decimal is the smaller, and equal lengths compare as text.
 */
export function compareUpdateIds(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}
