import type { Db } from "./database.js";
import { toFtsWords } from "./chat-rows.js";

/** A chunk grows until about this size; then the next text starts a new one. */
export const CHUNK_BYTES = 16 * 1024;

/**
 * The conversation search index: titles in `title_search` (rowid = conversation rowid),
 * message text in bounded chunks of `text_search`, mapped to conversations by
 * `text_search_chunks`. Appending touches one small chunk, never a whole conversation.
 */
export class SearchIndex {
  private readonly s;
  private readonly matchClauses = new Map<number, string>();

  constructor(db: Db) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      insertTitle: p("INSERT INTO title_search (rowid, title) VALUES (?, ?)"),
      updateTitle: p("UPDATE title_search SET title = ? WHERE rowid = ?"),
      deleteTitle: p("DELETE FROM title_search WHERE rowid = ?"),
      tail: p("SELECT chunk, bytes FROM text_search_chunks WHERE conv = ? ORDER BY chunk DESC LIMIT 1"),
      growChunk: p("UPDATE text_search SET body = body || char(10) || ? WHERE rowid = ?"),
      growBytes: p("UPDATE text_search_chunks SET bytes = bytes + ? WHERE chunk = ?"),
      newChunk: p("INSERT INTO text_search (body) VALUES (?)"),
      mapChunk: p("INSERT INTO text_search_chunks (chunk, conv, bytes) VALUES (?, ?, ?)"),
      deleteChunks: p("DELETE FROM text_search WHERE rowid IN (SELECT chunk FROM text_search_chunks WHERE conv = ?)"),
      unmapChunks: p("DELETE FROM text_search_chunks WHERE conv = ?"),
    };
  }

  addTitle(conversationRowid: number | bigint, title: string): void {
    this.s.insertTitle.run(conversationRowid, title);
  }

  setTitle(conversationRowid: number, title: string): void {
    this.s.updateTitle.run(title, conversationRowid);
  }

  appendText(conversationRowid: number, text: string): void {
    const bytes = Buffer.byteLength(text);
    const tail = this.s.tail.get(conversationRowid) as { chunk: number; bytes: number } | undefined;
    if (tail && tail.bytes + bytes <= CHUNK_BYTES) {
      this.s.growChunk.run(text, tail.chunk);
      this.s.growBytes.run(bytes + 1, tail.chunk);
      return;
    }
    const chunk = this.s.newChunk.run(text).lastInsertRowid;
    this.s.mapChunk.run(chunk, conversationRowid, bytes);
  }

  remove(conversationRowid: number): void {
    this.s.deleteTitle.run(conversationRowid);
    this.s.deleteChunks.run(conversationRowid);
    this.s.unmapChunks.run(conversationRowid);
  }

  /**
   * SQL matching conversations (by `rowid`) that contain every word of `q` — each word in
   * the title or in any chunk, as a prefix — plus its parameters; null when `q` has no words.
   */
  match(q: string): { sql: string; params: Record<string, string> } | null {
    const words = toFtsWords(q);
    if (!words) return null;
    let sql = this.matchClauses.get(words.length);
    if (!sql) {
      sql = words
        .map(
          (_, i) =>
            `(rowid IN (SELECT rowid FROM title_search WHERE title_search MATCH @w${i})` +
            ` OR rowid IN (SELECT k.conv FROM text_search t JOIN text_search_chunks k ON k.chunk = t.rowid WHERE text_search MATCH @w${i}))`,
        )
        .join(" AND ");
      this.matchClauses.set(words.length, sql);
    }
    return { sql, params: Object.fromEntries(words.map((w, i) => [`w${i}`, w])) };
  }
}
