import type { AlbumPartStore, InboundUpdate } from "../../../application/channels/ports.js";
import type { Db } from "../database.js";

/** Album parts waiting for their album to be sent (channel_album_parts); gone with their channel. */
export function sqliteAlbumPartStore(db: Db): AlbumPartStore {
  // A redelivered part is the same row: kept once.
  const keep = db.prepare("INSERT OR IGNORE INTO channel_album_parts (channel_id, update_id, part, received_at) VALUES (?, ?, ?, ?)");
  const list = db.prepare("SELECT part FROM channel_album_parts WHERE channel_id = ? ORDER BY update_id");
  const drop = db.prepare("DELETE FROM channel_album_parts WHERE channel_id = ? AND update_id = ?");
  const dropAll = db.transaction((channelId: string, updateIds: readonly string[]) => {
    for (const id of updateIds) drop.run(channelId, id);
  });
  return {
    keepAlbumPart: (channelId, part, now) => void keep.run(channelId, part.updateId, JSON.stringify(part), now),
    // Parts kept before update ids became text (migration 0021) read back with a text id.
    albumParts: (channelId) =>
      (list.all(channelId) as { part: string }[]).map((r) => {
        const part = JSON.parse(r.part) as InboundUpdate;
        return { ...part, updateId: String(part.updateId) };
      }),
    dropAlbumParts: (channelId, updateIds) => dropAll(channelId, updateIds),
  };
}
