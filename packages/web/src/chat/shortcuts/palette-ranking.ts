import type { ConversationOut, SearchMatch } from "@coffer/protocol";

/** One row of the jump palette: a conversation, and why it is there. */
export interface PaletteEntry {
  readonly conversation: ConversationOut;
  /** Every typed word is in the title: the row is ranked first and its title is marked. */
  readonly titleMatch: boolean;
  /** Only on a row found inside the conversation: the message's snippet, its terms marked. */
  readonly match: SearchMatch | null;
}

/** Lower-cased, accents folded ("Café" → "cafe"), so a typed word finds the title as the daemon's search does. */
export function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

export function queryWords(query: string): string[] {
  return fold(query).split(/\s+/).filter(Boolean);
}

/** Whether every word is somewhere in the title (in any order). */
export function titleHasWords(title: string, words: readonly string[]): boolean {
  const t = fold(title);
  return words.every((w) => t.includes(w));
}

/**
 * [start, end) ranges of the words in the title, for marking them. Folding can change a
 * string's length ("ﬁ", decomposed letters), so a title it changes is left unmarked rather
 * than marked in the wrong place.
 */
export function titleHighlights(title: string, words: readonly string[]): [number, number][] {
  const t = fold(title);
  if (t.length !== title.length) return [];
  const out: [number, number][] = [];
  for (const w of words) {
    for (let at = t.indexOf(w); at >= 0; at = t.indexOf(w, at + w.length)) out.push([at, at + w.length]);
  }
  return out;
}

const newestFirst = (a: ConversationOut, b: ConversationOut) => b.updated_at.localeCompare(a.updated_at);

/**
 * The palette's one ranking (docs/decisions.md, "Focus, palette, knowledge view, tool-call log"):
 * conversations whose title holds every typed word first, newest first — from what the page
 * has loaded and from the daemon's search alike — then those found only inside their messages,
 * in the daemon's order, each with its snippet. `searched` is null until the daemon has
 * answered this query; titles rank at once from what is loaded.
 */
export function rankJumpResults(
  query: string,
  loaded: readonly ConversationOut[],
  searched: readonly ConversationOut[] | null,
  limit: number,
): PaletteEntry[] {
  const words = queryWords(query);
  if (!words.length) return loaded.slice(0, limit).map((conversation) => ({ conversation, titleMatch: false, match: null }));
  const titles = new Map<string, ConversationOut>();
  for (const c of loaded) if (titleHasWords(c.title, words)) titles.set(c.id, c);
  const inMessages: ConversationOut[] = [];
  for (const c of searched ?? []) {
    // The daemon folds words its own way: a hit it found in the title alone is a title match too.
    if (titleHasWords(c.title, words) || c.match?.message_id === null) titles.set(c.id, c);
    else inMessages.push(c);
  }
  const first = [...titles.values()].sort(newestFirst).map((conversation) => ({ conversation, titleMatch: true, match: null }));
  const then = inMessages
    .filter((c) => !titles.has(c.id))
    .map((conversation) => ({ conversation, titleMatch: false, match: conversation.match ?? null }));
  return [...first, ...then].slice(0, limit);
}
