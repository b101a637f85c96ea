/**
 * How an assistant reply ended, kept with it: a page reloaded after a stopped or failed
 * turn still says "Stopped" or why it failed, not just "failed".
 */
export const sql = `
ALTER TABLE messages ADD COLUMN stop_reason TEXT;
ALTER TABLE messages ADD COLUMN error_code TEXT;
ALTER TABLE messages ADD COLUMN error_message TEXT;
`;
