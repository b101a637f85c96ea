/**
 * Parts of a phone album (a Telegram media group) received and not yet sent. Each part is an
 * update of its own; its row is written before the update's offset is recorded, so a restart
 * inside the album's quiet window still sends the album, once (docs/decisions.md, "Telegram
 * inbound files"). `part` is the InboundUpdate as JSON (the owner's caption and file ids).
 */
export const sql = `
CREATE TABLE channel_album_parts (
  channel_id  TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
  update_id   INTEGER NOT NULL,
  part        TEXT NOT NULL,
  received_at INTEGER NOT NULL,
  PRIMARY KEY (channel_id, update_id)
);
`;
