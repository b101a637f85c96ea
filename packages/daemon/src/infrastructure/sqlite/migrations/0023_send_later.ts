/**
 * Send later (issue 27): a queued message may carry a time. `send_at` (epoch ms) is when it goes;
 * `send_when` is how it was asked ('at' a time, or 'limit_reset': it follows the agent's reset);
 * `send_missed` marks one that came due while the daemon was down (sent on start, and says so).
 * The partial index serves the one alarm's scan of every scheduled message.
 */
export const sql = `
ALTER TABLE pending_messages ADD COLUMN send_at INTEGER;
ALTER TABLE pending_messages ADD COLUMN send_when TEXT;
ALTER TABLE pending_messages ADD COLUMN send_missed INTEGER NOT NULL DEFAULT 0;
CREATE INDEX pending_send_at ON pending_messages (send_at) WHERE send_at IS NOT NULL;
`;
