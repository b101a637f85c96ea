/**
 * The vault's own rows: memory facts and knowledge bases (documents, chunks), each searched
 * with FTS5 (BM25). Skills are folders on disk, not rows. The search tables are external
 * content over the rows (no second copy of the text), kept in step by triggers; every table
 * has an INTEGER PRIMARY KEY so the rowids FTS5 points at survive VACUUM.
 */
export const sql = `
CREATE TABLE memory_facts (
  pk          INTEGER PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  scope       TEXT NOT NULL CHECK (scope IN ('global', 'project')),
  project     TEXT,
  name        TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  type        TEXT NOT NULL DEFAULT 'fact',
  text        TEXT NOT NULL,
  actor       TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  CHECK ((scope = 'global') = (project IS NULL))
);
CREATE INDEX memory_facts_scope_recent ON memory_facts (scope, project, updated_at DESC);

CREATE VIRTUAL TABLE memory_search USING fts5 (
  name, text, content = 'memory_facts', content_rowid = 'pk', tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER memory_facts_ai AFTER INSERT ON memory_facts BEGIN
  INSERT INTO memory_search (rowid, name, text) VALUES (new.pk, new.name, new.text);
END;
CREATE TRIGGER memory_facts_ad AFTER DELETE ON memory_facts BEGIN
  INSERT INTO memory_search (memory_search, rowid, name, text) VALUES ('delete', old.pk, old.name, old.text);
END;
CREATE TRIGGER memory_facts_au AFTER UPDATE OF name, text ON memory_facts BEGIN
  INSERT INTO memory_search (memory_search, rowid, name, text) VALUES ('delete', old.pk, old.name, old.text);
  INSERT INTO memory_search (rowid, name, text) VALUES (new.pk, new.name, new.text);
END;

CREATE TABLE knowledge_bases (
  pk          INTEGER PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
  description TEXT NOT NULL DEFAULT '',
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);

CREATE TABLE knowledge_documents (
  pk          INTEGER PRIMARY KEY,
  id          TEXT NOT NULL UNIQUE,
  kb_pk       INTEGER NOT NULL REFERENCES knowledge_bases (pk) ON DELETE CASCADE,
  filename    TEXT NOT NULL,
  source_path TEXT NOT NULL,
  content     TEXT NOT NULL,
  chunks      INTEGER NOT NULL,
  created_at  INTEGER NOT NULL,
  CONSTRAINT knowledge_documents_filename UNIQUE (kb_pk, filename)
);

CREATE TABLE knowledge_chunks (
  pk          INTEGER PRIMARY KEY,
  document_pk INTEGER NOT NULL REFERENCES knowledge_documents (pk) ON DELETE CASCADE,
  ordinal     INTEGER NOT NULL,
  text        TEXT NOT NULL,
  CONSTRAINT knowledge_chunks_ordinal UNIQUE (document_pk, ordinal)
);

CREATE VIRTUAL TABLE knowledge_search USING fts5 (
  text, content = 'knowledge_chunks', content_rowid = 'pk', tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER knowledge_chunks_ai AFTER INSERT ON knowledge_chunks BEGIN
  INSERT INTO knowledge_search (rowid, text) VALUES (new.pk, new.text);
END;
CREATE TRIGGER knowledge_chunks_ad AFTER DELETE ON knowledge_chunks BEGIN
  INSERT INTO knowledge_search (knowledge_search, rowid, text) VALUES ('delete', old.pk, old.text);
END;
`;
