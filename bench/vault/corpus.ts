/**
 * A synthetic corpus with a Zipf-like word distribution, deterministic from a seed, so
 * searches meet the mix of common and rare terms real notes and documents have.
 */
export class Corpus {
  readonly vocabulary: string[];
  private state: number;
  private readonly cumulative: number[];

  constructor(seed = 7, size = 6000) {
    this.state = seed;
    const syllables = ["ka", "lo", "mi", "ren", "tor", "vel", "sa", "qui", "dun", "pra", "ex", "zo", "ber", "nal", "fi", "gro"];
    const words = new Set<string>();
    while (words.size < size) {
      let w = "";
      for (let n = 2 + this.int(3); n > 0; n--) w += syllables[this.int(syllables.length)];
      words.add(w);
    }
    this.vocabulary = [...words];
    let total = 0;
    this.cumulative = this.vocabulary.map((_, rank) => (total += 1 / (rank + 1)));
  }

  next(): number {
    // mulberry32
    let t = (this.state += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  word(): string {
    const target = this.next() * this.cumulative[this.cumulative.length - 1]!;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return this.vocabulary[lo]!;
  }

  sentence(words: number): string {
    return Array.from({ length: words }, () => this.word()).join(" ");
  }
}
