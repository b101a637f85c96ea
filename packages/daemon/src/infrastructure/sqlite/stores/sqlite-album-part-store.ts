import type { AlbumPartStore, InboundUpdate } from "../../../application/channels/ports.js";
import type { Db } from "../database.js";

/** Album parts waiting for their album to be sent (channel_album_parts); gone with their channel. */
export class SqliteAlbumPartStore implements AlbumPartStore {
  private readonly s;

  constructor(private readonly db: Db) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      // A redelivered part is the same row: kept once.
      keep: p("INSERT OR IGNORE INTO channel_album_parts (channel_id, update_id, part, received_at) VALUES (?, ?, ?, ?)"),
      list: p("SELECT part FROM channel_album_parts WHERE channel_id = ? ORDER BY update_id"),
      drop: p("DELETE FROM channel_album_parts WHERE channel_id = ? AND update_id = ?"),
    };
  }

  keepAlbumPart(channelId: string, part: InboundUpdate, now: number): void {
    this.s.keep.run(channelId, part.updateId, JSON.stringify(part), now);
  }

  albumParts(channelId: string): InboundUpdate[] {
    return (this.s.list.all(channelId) as { part: string }[]).map((r) => JSON.parse(r.part) as InboundUpdate);
  }

  dropAlbumParts(channelId: string, updateIds: readonly number[]): void {
    this.db.transaction(() => {
      for (const id of updateIds) this.s.drop.run(channelId, id);
    })();
  }
}
