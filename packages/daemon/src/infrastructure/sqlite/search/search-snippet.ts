import type { SearchMatch } from "@coffer/protocol";
import { parseContent, searchableText } from "../rows/chat-rows.js";
import type { Db } from "../database.js";
import { isAscii } from "./search-index.js";

/** The snippet's length in characters (UTF-16 units, like the highlight offsets). */
export const SNIPPET_CHARS = 160;
/** Newest messages read directly before the chunks are searched. */
const NEWEST_FIRST = 4;
/** Characters of context kept before the first highlighted word. */
const LEAD = 40;

/** '"deploy"*' → ["deploy"]; a term FTS reads as a phrase ("foo_bar") gives each of its words. */
function plainWords(terms: readonly string[]): string[] {
  return terms.flatMap((t) => t.replace(/^"|"\*$/g, "").split(/[^\p{L}\p{N}]+/u)).filter(Boolean);
}

/** Lower case without diacritics, as the FTS tokenizer folds (`remove_diacritics 2`). */
function fold(s: string): string {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(s) ? s.toLowerCase() : s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** [start, end) of every token of `text` that starts with one of `words`, and which words hit. */
function hitsIn(text: string, words: readonly string[]): { spans: [number, number][]; found: Set<string> } {
  const spans: [number, number][] = [];
  const found = new Set<string>();
  for (const m of text.matchAll(/[\p{L}\p{N}\p{M}]+/gu)) {
    const token = fold(m[0]);
    const w = words.find((word) => token.startsWith(word));
    if (w === undefined) continue;
    found.add(w);
    spans.push([m.index, m.index + m[0].length]);
  }
  return { spans, found };
}

/** A window of plain text around the first hit (or the start), with its hits re-based. */
export function snippetAround(raw: string, words: readonly string[]): { snippet: string; highlights: [number, number][] } {
  const text = raw.replace(/\s+/g, " ").trim();
  const first = hitsIn(text, words).spans[0];
  return window(text, first ? first[0] : 0, words, false, false);
}

/**
 * SNIPPET_CHARS of `text` from about LEAD characters before `at`, cut at spaces, with an
 * ellipsis where text was cut off (or where the caller says more came before or after).
 */
function window(text: string, at: number, words: readonly string[], before: boolean, after: boolean) {
  let start = 0;
  if (at > LEAD) start = text.lastIndexOf(" ", at - LEAD) + 1 || at - LEAD;
  let end = Math.min(text.length, start + SNIPPET_CHARS);
  if (end < text.length) {
    const space = text.lastIndexOf(" ", end);
    if (space > at) end = space;
  }
  const lead = start > 0 || before ? "…" : "";
  const body = text.slice(start, end).trim();
  const snippet = `${lead}${body}${end < text.length || after ? "…" : ""}`;
  const highlights = hitsIn(body, words).spans.map(([s, e]): [number, number] => [s + lead.length, e + lead.length]);
  return { snippet, highlights };
}

const SEPARATOR = /[^\p{L}\p{N}\p{M}]/u;

/** Characters of ASCII text lower-cased first when its last hit is looked for (the tail). */
const TAIL_WINDOW = 2048;

/**
 * lastHit for ASCII text: its tail lower-cased first, so a word near the end (the usual case:
 * the newest text is last) costs a 2 KB copy instead of the whole 16 KB chunk's; then the rest
 * at once. The rest overlaps the tail by the word's length, so a hit across the cut is seen.
 */
function lastHitAscii(body: string, word: string): number {
  for (let end = body.length; end > 0; ) {
    const from = end === body.length ? Math.max(0, end - TAIL_WINDOW) : 0;
    const lower = body.slice(from, end + word.length - 1).toLowerCase();
    for (let i = lower.lastIndexOf(word); i >= 0; i = i ? lower.lastIndexOf(word, i - 1) : -1) {
      const at = from + i;
      if (at === 0 || SEPARATOR.test(body[at - 1]!)) return at;
    }
    end = from;
  }
  return -1;
}

/** Index in `body` of the last token starting with `word` (a folded word), or -1. */
function lastHit(body: string, word: string, ascii = isAscii(body)): number {
  if (ascii) return lastHitAscii(body, word);
  const lower = body.toLowerCase();
  for (let i = lower.lastIndexOf(word); i >= 0; i = i ? lower.lastIndexOf(word, i - 1) : -1) {
    if (i === 0 || SEPARATOR.test(lower[i - 1]!)) return i;
  }
  // Diacritics and other scripts fold in the tokenizer: find it token by token.
  const spans = hitsIn(body, [word]).spans;
  return spans.length ? spans[spans.length - 1]![0] : -1;
}

/** The snippet around position `at` of `text`, within its line (a chunk's lines are messages' lines). */
function aroundHit(text: string, at: number, words: readonly string[]) {
  const lineStart = text.lastIndexOf("\n", at) + 1;
  const lineEnd = (text.indexOf("\n", at) + 1 || text.length + 1) - 1;
  const from = Math.max(lineStart, at - LEAD - SNIPPET_CHARS);
  const to = Math.min(lineEnd, at + SNIPPET_CHARS);
  const head = text.slice(from, at).replace(/\s+/g, " ");
  const piece = head + text.slice(at, to).replace(/\s+/g, " ");
  return window(piece, head.length, words, from > 0, to < text.length);
}

/** Characters JSON.stringify writes escaped: a fragment without them is found verbatim in stored content. */
// eslint-disable-next-line no-control-regex
const ESCAPED_IN_JSON = /["\\\x00-\x1f]/;

/**
 * Where a search matched one conversation, for the returned page only. The newest chunk of
 * its text holding the query's longest word (likely its rarest) gives the snippet: the line
 * around that word's last (newest) occurrence, with every query word in it highlighted. The
 * message is the newest one whose stored content holds the text from that word on (instr
 * over one conversation's rows, newest first: the newest chunk is the newest messages).
 * No chunk holds it → the title matched: message_id null, the snippet from the title.
 */
export class SnippetFinder {
  private readonly s;

  constructor(db: Db) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      chunksOf: p("SELECT chunk FROM text_search_chunks WHERE conv = ? ORDER BY chunk DESC").pluck(),
      chunkBody: p("SELECT body FROM text_search WHERE rowid = ?").pluck(),
      newerChunks: p("SELECT count(*) FROM text_search_chunks WHERE conv = ? AND chunk > ?").pluck(),
      newest: p(`SELECT id, content FROM messages WHERE conversation_id = @conversation AND status <> 'streaming' ORDER BY seq DESC LIMIT ${NEWEST_FIRST}`),
      // Newest first for the newest chunk; oldest first for an older one (its messages are early).
      messageWith: p(
        "SELECT id FROM messages WHERE conversation_id = ? AND status <> 'streaming' AND instr(content, ?) > 0 ORDER BY seq DESC LIMIT 1",
      ).pluck(),
      // The message starting at or before a byte offset of a chunk (migration 0012); null when
      // that message was deleted, no row when the chunk predates the table.
      startAt: p(
        "SELECT (SELECT id FROM messages WHERE conversation_id = @conversation AND seq = s.seq) AS id FROM text_search_starts s WHERE chunk = @chunk AND offset <= @offset ORDER BY offset DESC LIMIT 1",
      ),
      earliestWith: p(
        "SELECT id FROM messages WHERE conversation_id = ? AND status <> 'streaming' AND instr(content, ?) > 0 ORDER BY seq LIMIT 1",
      ).pluck(),
    };
  }

  /** The last query's words, folded: a page asks for every result's snippet with the same terms. */
  private lastWords: { key: string; words: string[]; probeTerm: string; probe: string } | null = null;

  private wordsOf(terms: readonly string[]): { words: string[]; probeTerm: string; probe: string } {
    const key = terms.join("\u0000");
    if (this.lastWords?.key !== key) {
      const probeTerm = terms.reduce((a, b) => (b.length > a.length ? b : a), "");
      this.lastWords = {
        key,
        words: [...new Set(plainWords(terms).map(fold))],
        probeTerm,
        probe: fold(plainWords([probeTerm]).reduce((a, b) => (b.length > a.length ? b : a), "")),
      };
    }
    return this.lastWords;
  }

  /** `hints`: the last search's newest chunk per conversation for each word (SearchIndex.hints). */
  match(
    conversation: { rowid: number; id: string; title: string },
    terms: readonly string[],
    hints?: ReadonlyMap<string, ReadonlyMap<number, number>>,
    /** Conversation rowid → its newest chunk, where the search already read it (SearchIndex.newestChunks). */
    newestChunks?: ReadonlyMap<number, number>,
    /** Chunk → its text, where the search already read it (SearchIndex.hitBodies); a body is dropped once used. */
    bodies?: Map<number, string>,
  ): SearchMatch {
    const { words, probeTerm, probe } = this.wordsOf(terms);
    const hint = hints?.get(probeTerm)?.get(conversation.rowid);
    const title = () => ({ message_id: null, ...snippetAround(conversation.title, words) });
    if (!probe) return title();
    if (hint === 0 && hitsIn(conversation.title, [probe]).spans.length) return title();
    // The newest chunk holds it (always so for a frequent word): the last few messages
    // nearly always do too, and reading them is cheaper than the chunk's 16 KB. Tried only
    // where the search saw that the hint is the newest chunk (a walk's probe); a hint from a
    // word's set of chunks goes to its chunk at once (one read and one indexed start).
    const known = newestChunks?.get(conversation.rowid);
    const newestChunk = hint === undefined || hint === 0 || known === hint;
    if (newestChunk) {
      // Iterated, not read whole: a frequent word is nearly always in the newest message.
      for (const m of this.s.newest.iterate({ conversation: conversation.id }) as IterableIterator<{ id: string; content: string }>) {
        if (!m.content.toLowerCase().includes(probe)) continue;
        const text = searchableText(parseContent(m.content));
        const at = lastHit(text, probe);
        if (at >= 0) return { message_id: m.id, ...aroundHit(text, at, words) };
      }
    }
    if (hint) {
      const found = this.inChunk(conversation, hint, probe, words, newestChunk || undefined, bodies);
      if (found) return found;
    }
    const chunks = this.s.chunksOf.all(conversation.rowid) as number[];
    for (const [i, chunk] of chunks.entries()) {
      const found = this.inChunk(conversation, chunk, probe, words, i === 0);
      if (found) return found;
    }
    return title();
  }

  private inChunk(
    conversation: { rowid: number; id: string },
    chunk: number,
    probe: string,
    words: readonly string[],
    /** Whether `chunk` is the conversation's newest; undefined: not known (asked only if the scan is needed). */
    newest: boolean | undefined,
    bodies?: Map<number, string>,
  ): SearchMatch | null {
    let body = bodies?.get(chunk);
    if (body === undefined) body = this.s.chunkBody.get(chunk) as string | undefined;
    else bodies!.delete(chunk);
    if (body === undefined) return null;
    const ascii = isAscii(body);
    const at = lastHit(body, probe, ascii);
    if (at < 0) return null;
    const offset = ascii ? at : Buffer.byteLength(body.slice(0, at)); // starts are UTF-8 byte offsets
    const start = this.s.startAt.get({ conversation: conversation.id, chunk, offset }) as { id: string | null } | undefined;
    if (start) return { message_id: start.id, ...aroundHit(body, at, words) };
    let fragment = body.slice(at, at + 40);
    const cut = fragment.search(ESCAPED_IN_JSON);
    if (cut >= 0) fragment = fragment.slice(0, cut);
    newest ??= this.s.newerChunks.get(conversation.rowid, chunk) === 0;
    const id = (newest ? this.s.messageWith : this.s.earliestWith).get(conversation.id, fragment) as string | undefined;
    return { message_id: id ?? null, ...aroundHit(body, at, words) };
  }
}
