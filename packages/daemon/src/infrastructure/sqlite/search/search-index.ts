import type { Db } from "../database.js";
import { toFtsWords } from "../rows/chat-rows.js";

/**
 * Whether `s` is all ASCII: its UTF-8 length equals its UTF-16 length only then. ≈ 4 µs for a
 * 16 KB chunk, against ≈ 20 µs for the regex /[^\x00-\x7f]/ (measured).
 */
export function isAscii(s: string): boolean {
  return Buffer.byteLength(s) === s.length;
}
const textProbes = new Map<string, RegExp | null>();

/**
 * A probe of an ASCII word reads the chunk's text: in ASCII text the unicode61 tokenizer's
 * tokens are exactly the runs of [A-Za-z0-9], lower-cased, so "the word starts a token" is
 * this regex (a hit preceded by an ASCII separator or the start). A miss in text with any
 * non-ASCII character (diacritics fold, other scripts) is asked of FTS5 after all.
 * A prefix of 4+ characters has no prefix index: FTS5 expands it over every matching term's
 * whole doclist on each query (~0.3 ms a probe). Even a 1–3 character one, which the prefix
 * index covers, costs ~15 µs as `MATCH ? AND rowid = ?` (seeking a doclist as long as the
 * corpus) against ~5 µs to read a 16 KB chunk and find the word near its start (measured at
 * 10k / 1M; probes are for frequent words, so hits come early). A miss scans the whole chunk
 * (~40 µs): frequent words rarely miss.
 */
function textProbe(term: string): RegExp | null {
  let re = textProbes.get(term);
  if (re === undefined) {
    const word = /^"([a-z0-9]+)"\*$/.exec(term)?.[1];
    re = word ? new RegExp(`(?:^|[\\x00-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f])${word}`, "i") : null;
    if (textProbes.size < 1000) textProbes.set(term, re);
  }
  return re;
}

/** Hits read to estimate a term's density. */
const DENSITY_SAMPLE = 200;

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
  /**
   * chunk rowid → conversation rowid, built on the first search and kept by this class (the
   * only writer of chunks). A frequent word's conversations are found from its chunk list
   * without a join per chunk. A miss (a rolled-back remove) falls back to the table.
   */
  private chunkConv: Map<number, number> | null = null;
  /**
   * What the last search learnt, per word: conversation rowid → the newest chunk holding the
   * word (0: only the title). The snippets of the page that search returned start there
   * instead of reading every chunk again. A hint is checked before it is used.
   */
  readonly hints = new Map<string, Map<number, number>>();
  /** Conversation rowid → its newest chunk, for the conversations the last search probed. */
  readonly newestChunks = new Map<number, number>();
  /**
   * Chunk rowid → its text, for the chunks the last search's probes found a word in: the
   * page's snippets are cut from these same chunks, so they are not read (16 KB each) twice.
   * Only hits are kept (at most about one a result); a write to a chunk drops it.
   */
  readonly hitBodies = new Map<number, string>();

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
      firstStart: p("INSERT INTO text_search_starts (chunk, offset, seq) VALUES (?, 0, ?)"),
      // Only in a chunk that has its first start: an older chunk's `bytes` may count characters.
      nextStart: p(
        "INSERT INTO text_search_starts (chunk, offset, seq) SELECT @chunk, @offset, @seq WHERE EXISTS (SELECT 1 FROM text_search_starts WHERE chunk = @chunk AND offset = 0)",
      ),
      deleteStarts: p("DELETE FROM text_search_starts WHERE chunk IN (SELECT chunk FROM text_search_chunks WHERE conv = ?)"),
      chunksOf: p("SELECT chunk FROM text_search_chunks WHERE conv = ? ORDER BY chunk DESC").pluck(),
      convOf: p("SELECT conv FROM text_search_chunks WHERE chunk = ?").pluck(),
      allChunks: p("SELECT chunk, conv FROM text_search_chunks").raw(),
      newestHits: p(`SELECT rowid FROM text_search WHERE text_search MATCH ? ORDER BY rowid DESC LIMIT ${DENSITY_SAMPLE}`).pluck(),
      lastChunk: p("SELECT max(chunk) FROM text_search_chunks").pluck(),
      titleRows: p("SELECT rowid FROM title_search WHERE title_search MATCH ?").pluck(),
      textRows: p("SELECT rowid FROM text_search WHERE text_search MATCH ?").pluck(),
      titleHas: p("SELECT 1 FROM title_search WHERE title_search MATCH ? AND rowid = CAST(? AS INTEGER)").pluck(),
      titleText: p("SELECT title FROM title_search WHERE rowid = CAST(? AS INTEGER)").pluck(),
      chunkHas: p("SELECT 1 FROM text_search WHERE text_search MATCH ? AND rowid = CAST(? AS INTEGER)").pluck(),
      chunkBody: p("SELECT body FROM text_search WHERE rowid = ?").pluck(),
    };
  }

  addTitle(conversationRowid: number | bigint, title: string): void {
    this.s.insertTitle.run(conversationRowid, title);
  }

  setTitle(conversationRowid: number, title: string): void {
    this.s.updateTitle.run(title, conversationRowid);
  }

  /** One finished message's text (`seq`: the message's place in its conversation). */
  appendText(conversationRowid: number, text: string, seq: number): void {
    const bytes = Buffer.byteLength(text);
    const tail = this.s.tail.get(conversationRowid) as { chunk: number; bytes: number } | undefined;
    if (tail && tail.bytes + bytes <= CHUNK_BYTES) {
      this.hitBodies.delete(tail.chunk);
      this.s.growChunk.run(text, tail.chunk);
      this.s.growBytes.run(bytes + 1, tail.chunk);
      this.s.nextStart.run({ chunk: tail.chunk, offset: tail.bytes + 1, seq });
      return;
    }
    const chunk = this.s.newChunk.run(text).lastInsertRowid;
    this.s.mapChunk.run(chunk, conversationRowid, bytes);
    this.s.firstStart.run(chunk, seq);
    this.chunkConv?.set(Number(chunk), conversationRowid);
  }

  remove(conversationRowid: number): void {
    this.hitBodies.clear();
    if (this.chunkConv) for (const c of this.s.chunksOf.all(conversationRowid) as number[]) this.chunkConv.delete(c);
    this.s.deleteTitle.run(conversationRowid);
    this.s.deleteStarts.run(conversationRowid);
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

  /**
   * The share of recent chunks holding `term` (0–1): the newest DENSITY_SAMPLE hits, read
   * newest-first from the term's doclist, against the chunk rowids they span. Recent chunks
   * are what a walk of the newest conversations meets. ≈ 50 µs, whatever the term's size.
   */
  density(term: string): number {
    const last = (this.s.lastChunk.get() as number | null) ?? 0;
    if (!last) return 0;
    const hits = this.s.newestHits.all(term) as number[];
    if (hits.length < DENSITY_SAMPLE) return hits.length / last;
    return DENSITY_SAMPLE / (last - hits[hits.length - 1]! + 1);
  }

  /** Every conversation rowid whose title or text holds `word`. */
  conversationsWith(word: string): Set<number> {
    const out = new Set(this.s.titleRows.all(word) as number[]);
    const hints = this.hintsFor(word);
    for (const conv of out) hints.set(conv, 0);
    const map = this.chunkMap();
    for (const chunk of this.s.textRows.all(word) as number[]) {
      let conv = map.get(chunk);
      if (conv === undefined) {
        conv = this.s.convOf.get(chunk) as number | undefined;
        if (conv === undefined) continue;
        map.set(chunk, conv);
      }
      out.add(conv);
      // FTS returns rowids ascending: the last chunk seen per conversation is its newest.
      hints.set(conv, chunk);
    }
    return out;
  }

  /** A new search starts: forget what the previous one learnt. */
  clearHints(): void {
    this.hints.clear();
    this.newestChunks.clear();
    this.hitBodies.clear();
  }

  private hintsFor(word: string): Map<number, number> {
    let h = this.hints.get(word);
    if (!h) this.hints.set(word, (h = new Map()));
    return h;
  }

  /** Whether one conversation holds `word`: its chunks newest first (where a word is likeliest), then its title. */
  has(conversationRowid: number, word: string): boolean {
    const text = textProbe(word);
    const hints = this.hintsFor(word);
    const chunks = this.s.chunksOf.all(conversationRowid) as number[];
    if (chunks.length) this.newestChunks.set(conversationRowid, chunks[0]!);
    for (const chunk of chunks) {
      let hit = false;
      let body: string | undefined;
      if (text) {
        body = this.s.chunkBody.get(chunk) as string | undefined;
        if (body === undefined) continue;
        hit = text.test(body);
        if (!hit && isAscii(body)) continue;
      }
      if (hit || this.s.chunkHas.get(word, chunk)) {
        hints.set(conversationRowid, chunk);
        if (body !== undefined) this.hitBodies.set(chunk, body);
        return true;
      }
    }
    // The title as the chunks are probed: its text read by rowid and met by the same regex
    // (≈ 3 µs) instead of a MATCH seeking the word's doclist (≈ 15–30 µs, the walk's misses).
    if (text) {
      const title = this.s.titleText.get(conversationRowid) as string | undefined;
      if (title === undefined) return false;
      const hit = text.test(title);
      if (hit) {
        hints.set(conversationRowid, 0);
        return true;
      }
      if (isAscii(title)) return false;
    }
    if (this.s.titleHas.get(word, conversationRowid) === undefined) return false;
    hints.set(conversationRowid, 0);
    return true;
  }

  private chunkMap(): Map<number, number> {
    if (!this.chunkConv) this.chunkConv = new Map(this.s.allChunks.all() as [number, number][]);
    return this.chunkConv;
  }
}
