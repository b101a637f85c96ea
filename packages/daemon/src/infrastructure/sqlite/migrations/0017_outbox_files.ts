/**
 * A queued phone message may be a file the agent shared (coffer__share_file): the JSON of
 * OutgoingMessage.file (attachment id, name, media type, size, photo or document); its bytes are
 * read from the attachment store when it is sent. NULL for a text message.
 */
export const sql = `
ALTER TABLE channel_outbox ADD COLUMN file TEXT;
`;
