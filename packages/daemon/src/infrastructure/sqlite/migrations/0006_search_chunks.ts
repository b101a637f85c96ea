/**
 * One search document per conversation made every finished message rewrite the whole
 * document: 300–425 ms per turn in a 645 KiB conversation (bench/conversations-scale),
 * on the path that starts a turn. Titles now have their own table, and message text goes
 * into chunks of at most ~16 KB per conversation, so an append rewrites one small chunk.
 * A query word matches a conversation when it is in the title or in any of its chunks.
 */
export const sql = `
CREATE VIRTUAL TABLE title_search USING fts5 (title, tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3');
INSERT INTO title_search (rowid, title) SELECT rowid, title FROM conversation_search;

CREATE VIRTUAL TABLE text_search USING fts5 (body, tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3');
CREATE TABLE text_search_chunks (
  chunk INTEGER PRIMARY KEY,
  conv  INTEGER NOT NULL,
  bytes INTEGER NOT NULL
);
CREATE INDEX text_search_chunks_by_conv ON text_search_chunks (conv, chunk);
INSERT INTO text_search (rowid, body) SELECT rowid, body FROM conversation_search WHERE body <> '';
INSERT INTO text_search_chunks (chunk, conv, bytes) SELECT rowid, rowid, length(body) FROM conversation_search WHERE body <> '';

DROP TABLE conversation_search;
`;
