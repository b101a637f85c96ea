/**
 * Vault search matches word forms through stemming instead of prefix queries: a prefix term
 * expands to every word sharing it and merges all their lists (7 ms p50 for an AND query
 * over 10k chunks, against 1.5 ms for exact terms). The porter tokenizer indexes and
 * queries "backups" and "backup" as one term, so terms stay exact. FTS5 fixes its tokenizer
 * at creation: the (external-content) tables are recreated and rebuilt from their rows; the
 * triggers refer to them by name and carry on. Memory ranks a name match double (`rank`).
 */
export const sql = `
DROP TABLE memory_search;
CREATE VIRTUAL TABLE memory_search USING fts5 (
  name, text, content = 'memory_facts', content_rowid = 'pk', tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO memory_search (memory_search, rank) VALUES ('rank', 'bm25(2.0, 1.0)');
INSERT INTO memory_search (memory_search) VALUES ('rebuild');

DROP TABLE knowledge_search;
CREATE VIRTUAL TABLE knowledge_search USING fts5 (
  text, content = 'knowledge_chunks', content_rowid = 'pk', tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO knowledge_search (knowledge_search) VALUES ('rebuild');
`;
