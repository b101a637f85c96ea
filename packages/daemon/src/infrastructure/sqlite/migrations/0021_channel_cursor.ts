/**
 * The adapter owns its update loop (issue 26, seam step 4): a channel keeps the adapter's opaque
 * cursor as text (Discord's is JSON: session, sequence, last ids) instead of Telegram's numeric
 * getUpdates offset. A Telegram channel's offset carries over as its cursor, so nothing is
 * redelivered or skipped across the upgrade; 0 meant "none yet" and becomes NULL.
 */
export const sql = `
ALTER TABLE channels ADD COLUMN cursor TEXT;
UPDATE channels SET cursor = CAST(update_offset AS TEXT) WHERE update_offset > 0;
ALTER TABLE channels DROP COLUMN update_offset;
`;
