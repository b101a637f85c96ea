import type { ConversationRow } from "./chat-rows.js";
import type { Db } from "./database.js";
import type { SearchIndex } from "./search-index.js";

/**
 * How a search is answered. All three return the same rows in the same order (the list's
 * order, newest first, keyset-paged); they differ only in cost:
 * - `walk`: the list index newest-first, each conversation probed for every word. Cheap
 *   when most conversations match ("the": the page fills after ~50 probes).
 * - `sets`: each word's conversations read whole from FTS, intersected, then the page taken
 *   in list order. Cheap when few match; a word in every chunk would cost ~3 ms at 1M messages.
 * - `auto`: rare words (counted to RARE_BELOW) go to sets at once; with only frequent words it
 *   walks, and hands the rest of the page to sets when fewer than half the conversations
 *   walked so far matched.
 */
export type SearchPlan = "auto" | "walk" | "sets";

export interface SearchPage {
  readonly archived: boolean;
  readonly limit: number;
  readonly after?: { readonly updatedAt: number; readonly id: string };
}

/**
 * A word in fewer titles + chunks than this is rare: its set is read at once (≈ 0.2 µs a
 * chunk). Counted through its first three characters (an upper bound the prefix index
 * answers incrementally; a longer prefix would be expanded in full just to be counted).
 */
export const RARE_BELOW = 1000;
/** A walk judges its hit rate only after this many conversations (a smaller sample is noise). */
export const WALK_SAMPLE = 24;
/**
 * Below this share of matching conversations, reading the sets beats probing one by one
 * (measured at 10k / 1M: a walk costs ≈ 12 µs a hit and ≈ 30 µs a miss; a set ≈ 0.2 µs a chunk).
 */
export const WALK_MIN_HIT_RATE = 0.25;
/** A candidate set up to this size is fetched by rowid and sorted; a bigger one is met walking the index. */
const FETCH_BY_ROWID_MAX = 512;

type Stmt = ReturnType<Db["prepare"]>;

/** '"deploy"*' → '"dep"*': a superset the 1–3 character prefix index counts cheaply. */
function estimateTerm(term: string): string {
  const word = term.slice(1, -2);
  const chars = [...word];
  return chars.length > 3 ? `"${chars.slice(0, 3).join("")}"*` : term;
}

/** The planner's thresholds; tests shrink them so a small corpus takes every path. */
export interface PlannerTuning {
  readonly rareBelow: number;
  readonly walkSample: number;
  readonly walkMinHitRate: number;
}

export class ConversationSearch {
  private readonly statements = new Map<string, Stmt>();

  constructor(
    private readonly db: Db,
    private readonly index: SearchIndex,
    private readonly cols: string,
    private readonly tuning: PlannerTuning = { rareBelow: RARE_BELOW, walkSample: WALK_SAMPLE, walkMinHitRate: WALK_MIN_HIT_RATE },
  ) {}

  /** Conversations holding every one of `words` (FTS terms from toFtsWords), one page in list order. */
  find(words: readonly string[], page: SearchPage, plan: SearchPlan = "auto"): ConversationRow[] {
    this.index.clearHints();
    return this.plan(words, page, plan);
  }

  private plan(words: readonly string[], page: SearchPage, plan: SearchPlan): ConversationRow[] {
    if (plan === "sets") return this.fromSets(words.map((w) => this.index.conversationsWith(w)), [], page);
    if (plan === "walk") return this.walk(words, page, false);
    const rare: string[] = [];
    const frequent: string[] = [];
    for (const w of words) (this.index.countUpTo(estimateTerm(w), this.tuning.rareBelow) < this.tuning.rareBelow ? rare : frequent).push(w);
    if (rare.length) return this.fromSets(rare.map((w) => this.index.conversationsWith(w)), frequent, page);
    return this.walk(words, page, true);
  }

  private walk(words: readonly string[], page: SearchPage, adaptive: boolean): ConversationRow[] {
    const out: ConversationRow[] = [];
    let visited = 0;
    let handOverAfter: ConversationRow | null = null;
    for (const row of this.stmt("walk", page).iterate(this.params(page)) as IterableIterator<ConversationRow>) {
      visited += 1;
      if (words.every((w) => this.index.has(row.rowid, w)) && out.push(row) >= page.limit) break;
      if (adaptive && visited >= this.tuning.walkSample && out.length < visited * this.tuning.walkMinHitRate) {
        handOverAfter = row;
        break;
      }
    }
    // After the loop: its statement is reset, so the rest of the page may reuse it.
    if (!handOverAfter) return out;
    const rest = { ...page, limit: page.limit - out.length, after: { updatedAt: handOverAfter.updated_at, id: handOverAfter.id } };
    return out.concat(this.plan(words, rest, "sets"));
  }

  /** Rows in the intersection of `sets` that also hold every `probe` word, in list order. */
  private fromSets(sets: Set<number>[], probe: readonly string[], page: SearchPage): ConversationRow[] {
    sets.sort((a, b) => a.size - b.size);
    const [smallest, ...others] = sets;
    const candidates = [...smallest!].filter((r) => others.every((s) => s.has(r)));
    if (!candidates.length) return [];
    const matches = (row: ConversationRow) => probe.every((w) => this.index.has(row.rowid, w));
    const out: ConversationRow[] = [];
    if (candidates.length <= FETCH_BY_ROWID_MAX) {
      const params = { ...this.params(page), ids: JSON.stringify(candidates) };
      for (const row of this.stmt("byRowid", page).iterate(params) as IterableIterator<ConversationRow>) {
        if (matches(row) && out.push(row) >= page.limit) break;
      }
      return out;
    }
    const wanted = new Set(candidates);
    for (const row of this.stmt("walk", page).iterate(this.params(page)) as IterableIterator<ConversationRow>) {
      if (wanted.has(row.rowid) && matches(row) && out.push(row) >= page.limit) break;
    }
    return out;
  }

  private params(page: SearchPage): Record<string, unknown> {
    return page.after ? { ...page.after } : {};
  }

  private stmt(kind: "walk" | "byRowid", page: SearchPage): Stmt {
    const key = `${kind}|${page.archived}|${page.after !== undefined}`;
    let s = this.statements.get(key);
    if (!s) {
      const where = [page.archived ? "archived_at IS NOT NULL" : "archived_at IS NULL"];
      if (kind === "byRowid") where.push("rowid IN (SELECT value FROM json_each(@ids))");
      if (page.after) where.push("(updated_at, id) < (@updatedAt, @id)");
      s = this.db.prepare(`SELECT ${this.cols} FROM conversations WHERE ${where.join(" AND ")} ORDER BY updated_at DESC, id DESC`);
      this.statements.set(key, s);
    }
    return s;
  }
}
