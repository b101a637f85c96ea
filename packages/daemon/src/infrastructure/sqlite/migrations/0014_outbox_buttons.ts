/**
 * A queued phone message may carry inline buttons (a single-choice question's options: one
 * tap answers it). Kept as the JSON of OutgoingMessage.buttons; NULL for a plain message.
 */
export const sql = `
ALTER TABLE channel_outbox ADD COLUMN buttons TEXT;
`;
