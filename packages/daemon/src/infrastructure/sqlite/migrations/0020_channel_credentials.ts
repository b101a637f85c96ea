/**
 * A channel's credentials become the map its platform adapter declares (issue 26): name → credential
 * ref, the secret values staying sealed in the credential store. The one `bot_token_ref` every
 * channel had is Telegram's `bot_token`.
 */
export const sql = `
ALTER TABLE channels ADD COLUMN credential_refs TEXT NOT NULL DEFAULT '{}';
UPDATE channels SET credential_refs = json_object('bot_token', bot_token_ref);
ALTER TABLE channels DROP COLUMN bot_token_ref;
`;
