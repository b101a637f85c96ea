/**
 * The voice flag (issue 25): a message whose text is the transcript of a recording (a Telegram
 * voice note) is shown with a 🎤 mark, after a reload and a restart too, and a queued one keeps
 * the flag until it runs. A column, not a content block: the text is what the agent reads, the
 * flag only says where it came from.
 */
export const sql = `
ALTER TABLE messages ADD COLUMN voice INTEGER NOT NULL DEFAULT 0;
ALTER TABLE pending_messages ADD COLUMN voice INTEGER NOT NULL DEFAULT 0;
`;
