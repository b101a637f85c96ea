import type {
  ChunkHit,
  KnowledgeBase,
  KnowledgeDocument,
  KnowledgeStore,
  NewDocument,
} from "../../../application/vault/vault-ports.js";
import type { Db } from "../database.js";
import { vaultFtsQuery } from "../search/vault-fts-query.js";

// Each SELECT names exactly the fields of the record it reads (vault-ports.ts): the row is the
// record, returned as it comes (docs/decisions.md, "Each record mapped once").
const BASES = `SELECT b.id, b.name, b.description, b.created_at, b.updated_at,
  (SELECT count(*) FROM knowledge_documents d WHERE d.kb_pk = b.pk) AS documents,
  (SELECT coalesce(sum(d.chunks), 0) FROM knowledge_documents d WHERE d.kb_pk = b.pk) AS chunks
  FROM knowledge_bases b`;

const DOCUMENTS = `SELECT d.id, b.id AS kb_id, b.name AS kb_name, d.filename, d.source_path, length(d.content) AS chars, d.chunks, d.created_at
  FROM knowledge_documents d JOIN knowledge_bases b ON b.pk = d.kb_pk`;

/** Knowledge bases, documents and chunks in SQLite; search is FTS5 BM25 with snippets. */
export class SqliteKnowledgeStore implements KnowledgeStore {
  private readonly putDocumentTx;

  constructor(private readonly db: Db) {
    const deleteSame = db.prepare("DELETE FROM knowledge_documents WHERE kb_pk = ? AND filename = ?");
    const insertDoc = db.prepare(
      `INSERT INTO knowledge_documents (id, kb_pk, filename, source_path, content, chunks, created_at)
       VALUES (@id, @kbPk, @filename, @sourcePath, @content, @chunkCount, @now)`,
    );
    const insertChunk = db.prepare("INSERT INTO knowledge_chunks (document_pk, ordinal, text) VALUES (?, ?, ?)");
    const touch = db.prepare("UPDATE knowledge_bases SET updated_at = ? WHERE pk = ?");
    this.putDocumentTx = db.transaction((kbPk: number, doc: NewDocument) => {
      deleteSame.run(kbPk, doc.filename);
      const { lastInsertRowid } = insertDoc.run({
        id: doc.id,
        kbPk,
        filename: doc.filename,
        sourcePath: doc.sourcePath,
        content: doc.content,
        chunkCount: doc.chunks.length,
        now: doc.now,
      });
      doc.chunks.forEach((text, ordinal) => insertChunk.run(lastInsertRowid, ordinal, text));
      touch.run(doc.now, kbPk);
    });
  }

  createBase(base: { id: string; name: string; description: string; now: number }): void {
    this.db
      .prepare("INSERT INTO knowledge_bases (id, name, description, created_at, updated_at) VALUES (@id, @name, @description, @now, @now)")
      .run(base);
  }

  findBase(ref: string): KnowledgeBase | null {
    const row = this.db.prepare(`${BASES} WHERE b.id = ? OR b.name = ? ORDER BY b.id = ? DESC LIMIT 1`).get(ref, ref, ref);
    return (row as KnowledgeBase | undefined) ?? null;
  }

  listBases(): KnowledgeBase[] {
    return this.db.prepare(`${BASES} ORDER BY b.name`).all() as KnowledgeBase[];
  }

  patchBase(id: string, patch: { name?: string; description?: string }, now: number): void {
    this.db
      .prepare("UPDATE knowledge_bases SET name = coalesce(@name, name), description = coalesce(@description, description), updated_at = @now WHERE id = @id")
      .run({ id, now, name: patch.name ?? null, description: patch.description ?? null });
  }

  deleteBase(id: string): boolean {
    return this.db.prepare("DELETE FROM knowledge_bases WHERE id = ?").run(id).changes > 0;
  }

  nameTaken(name: string, exceptId?: string): boolean {
    return this.db.prepare("SELECT 1 FROM knowledge_bases WHERE name = ? AND id IS NOT ?").get(name, exceptId ?? null) !== undefined;
  }

  putDocument(kbId: string, doc: NewDocument): void {
    const base = this.db.prepare("SELECT pk FROM knowledge_bases WHERE id = ?").get(kbId) as { pk: number } | undefined;
    if (!base) throw new Error(`knowledge base ${kbId} is gone`);
    this.putDocumentTx(base.pk, doc);
  }

  listDocuments(kbId: string): KnowledgeDocument[] {
    return this.db.prepare(`${DOCUMENTS} WHERE b.id = ? ORDER BY d.filename`).all(kbId) as KnowledgeDocument[];
  }

  getDocument(id: string): (KnowledgeDocument & { readonly content: string }) | null {
    const row = this.db.prepare(`${DOCUMENTS.replace("d.chunks,", "d.chunks, d.content,")} WHERE d.id = ?`).get(id);
    return (row as (KnowledgeDocument & { readonly content: string }) | undefined) ?? null;
  }

  deleteDocument(id: string): boolean {
    return this.db.prepare("DELETE FROM knowledge_documents WHERE id = ?").run(id).changes > 0;
  }

  search(query: string, kbId: string | null, topK: number, mode: "all" | "any"): ChunkHit[] {
    const match = vaultFtsQuery(query, mode);
    if (!match) return [];
    return this.db
      .prepare(
        // ORDER BY the table's rank column: FTS5 yields rows best first and snippet() runs only
        // for the rows returned (sorting on bm25() ran it for every match: up to 3× slower here).
        `SELECT b.name AS kb_name, d.id AS document_id, d.filename, c.ordinal, c.text,
           -knowledge_search.rank AS score,
           snippet(knowledge_search, 0, '[', ']', '…', 24) AS snippet
         FROM knowledge_search
         JOIN knowledge_chunks c ON c.pk = knowledge_search.rowid
         JOIN knowledge_documents d ON d.pk = c.document_pk
         JOIN knowledge_bases b ON b.pk = d.kb_pk
         WHERE knowledge_search MATCH @match ${kbId === null ? "" : "AND b.id = @kbId"}
         ORDER BY knowledge_search.rank LIMIT @topK`,
      )
      .all(kbId === null ? { match, topK } : { match, topK, kbId }) as ChunkHit[];
  }
}
