/**
 * The agent's line for a file it shared (coffer__share_file's `caption`), kept on the link from
 * its reply to the file: the phone sent it with the file, the page and a reload showed none.
 * NULL for the owner's files and for files shared without one.
 */
export const sql = `
ALTER TABLE message_attachments ADD COLUMN caption TEXT;
`;
