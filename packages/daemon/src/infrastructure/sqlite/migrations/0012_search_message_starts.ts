/**
 * Where each message's text starts in its search chunk: (chunk, byte offset) → the message's
 * seq in its conversation. A search's snippet finds the word in a chunk; this makes "which
 * message is that" one indexed read instead of scanning the conversation's stored JSON
 * (≈ 60–200 µs a conversation at 1M messages). Written with each chunk from now on; a chunk
 * written before (no row at offset 0) keeps the scan (docs/decisions.md, "Speed and
 * footprint (issue 16)").
 */
export const sql = `
CREATE TABLE text_search_starts (
  chunk  INTEGER NOT NULL,
  offset INTEGER NOT NULL,
  seq    INTEGER NOT NULL,
  PRIMARY KEY (chunk, offset)
) WITHOUT ROWID;
`;
