/**
 * Deterministic, chat-like text: a Zipf-distributed vocabulary (so a few words are in
 * nearly every message and most are rare), plus one planted word that appears in only a
 * handful of conversations. Search benches need both ends.
 */

/** Appears in almost every message. */
export const COMMON_WORD = "the";
/** Planted in exactly RARE_CONVERSATIONS conversations, once each. */
export const RARE_WORD = "quokkaphant";
export const RARE_CONVERSATIONS = 5;

const ENGLISH = `the of and to a in is it you that he was for on are with as I his they be at one have this
from or had by hot word but what some we can out other were all there when up use your how said an each
she which do their time if will way about many then them write would like so these her long make thing
see him two has look more day could go come did number sound no most people my over know water than call
first who may down side been now find any new work part take get place made live where after back little
only round man year came show every good me give our under name very through just form sentence great
think say help low line differ turn cause much mean before move right boy old too same tell does set three
want air well also play small end put home read hand port large spell add even land here must big high
such follow act why ask men change went light kind off need house picture try us again animal point
mother world near build self earth father build deploy server config branch commit merge test failing
passing error stack trace function module import export type interface schema migration index query
table column row cursor page limit token daemon socket request response header body status retry
timeout queue event stream delta buffer flush write read file path directory process signal kill
restart crash recover session agent model prompt reply tool call result output input review refactor`
  .split(/\s+/)
  .filter(Boolean);

/** A seeded PRNG (mulberry32) so every run seeds the same corpus. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** English words first (most frequent), then made-up identifiers for the long tail. */
function vocabulary(random: () => number, size: number): string[] {
  const words = [...new Set(ENGLISH)].filter((w) => w !== RARE_WORD);
  const letters = "abcdefghijklmnopqrstuvwxyz";
  while (words.length < size) {
    let w = "";
    const len = 4 + Math.floor(random() * 7);
    for (let i = 0; i < len; i++) w += letters[Math.floor(random() * 26)];
    words.push(w);
  }
  return words;
}

/** A frequent English word of four letters: a long prefix, probed without the prefix index. */
export const FREQUENT_LONG_WORD = "find";
/** The vocabulary rank of a word in roughly one conversation in ten (Zipf: 1/rank). */
const MID_RANK = 2_500;

export class TextGenerator {
  private readonly table: string[];
  /** A word in about one conversation in ten: neither plan's easy case. */
  readonly midWord: string;
  private readonly random: () => number;

  constructor(seed = 42, vocabularySize = 20_000) {
    this.random = rng(seed);
    const words = vocabulary(this.random, vocabularySize);
    this.midWord = words[MID_RANK]!;
    // A 2^16-slot lookup table filled by Zipf weight (1/rank): O(1) sampling.
    const weights = words.map((_, rank) => 1 / (rank + 1));
    const total = weights.reduce((a, b) => a + b, 0);
    this.table = [];
    for (let i = 0; i < words.length && this.table.length < 65_536; i++) {
      const slots = Math.max(1, Math.round((weights[i]! / total) * 65_536));
      for (let s = 0; s < slots; s++) this.table.push(words[i]!);
    }
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  /** Every sentence opens with the common word, so it is in every message. */
  sentence(words: number): string {
    const out = [COMMON_WORD];
    for (let i = 1; i < words; i++) out.push(this.table[Math.floor(this.random() * this.table.length)]!);
    const s = out.join(" ");
    return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
  }

  message(minWords: number, maxWords: number): string {
    let total = this.int(minWords, maxWords);
    const parts: string[] = [];
    while (total > 0) {
      const n = Math.min(total, this.int(5, 14));
      parts.push(this.sentence(n));
      total -= n;
    }
    return parts.join(" ");
  }
}
