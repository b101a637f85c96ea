/**
 * One attachment model (issue 25): each stored file described once (its bytes live in
 * <data dir>/attachments/<sha256[0:2]>/<sha256>, shared by rows with the same hash), linked in
 * order to the user message that carried it or to the queued message waiting to send it.
 * Links go with their message or queued row; the attachment row and its blob go when nothing
 * links them any more (AttachmentService.forgetConversation).
 */
export const sql = `
CREATE TABLE attachments (
  id          TEXT PRIMARY KEY,
  sha256      TEXT NOT NULL,
  name        TEXT NOT NULL,
  media_type  TEXT NOT NULL,
  size        INTEGER NOT NULL,
  created_at  INTEGER NOT NULL
);
CREATE INDEX attachments_sha256 ON attachments (sha256);

CREATE TABLE message_attachments (
  message_id    TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  position      INTEGER NOT NULL,
  attachment_id TEXT NOT NULL REFERENCES attachments (id) ON DELETE CASCADE,
  PRIMARY KEY (message_id, position)
);
CREATE INDEX message_attachments_attachment ON message_attachments (attachment_id);

CREATE TABLE pending_attachments (
  pending_id    TEXT NOT NULL REFERENCES pending_messages (id) ON DELETE CASCADE,
  position      INTEGER NOT NULL,
  attachment_id TEXT NOT NULL REFERENCES attachments (id) ON DELETE CASCADE,
  PRIMARY KEY (pending_id, position)
);
CREATE INDEX pending_attachments_attachment ON pending_attachments (attachment_id);
`;
