import type { ConversationRow } from "../rows/chat-rows.js";
import type { Db } from "../database.js";
import type { SearchIndex } from "./search-index.js";

/**
 * How a search is answered. All three return the same rows in the same order (the list's
 * order, newest first, keyset-paged); they differ only in cost:
 * - `walk`: the list index newest-first, each conversation probed for every word. Cheap
 *   when most conversations match ("the": the page fills after ~50 probes).
 * - `sets`: each word's conversations read whole from FTS, intersected, then the page taken
 *   in list order. Cheap when few match; a word in every chunk would cost ~3 ms at 1M messages.
 * - `auto`: rare words (sampled density below SETS_BELOW) go to sets, the others are probed
 *   on the sets' candidates; with only frequent words it walks, and hands the rest of the
 *   page to sets when fewer than half the conversations walked so far matched.
 */
export type SearchPlan = "auto" | "walk" | "sets";

export interface SearchPage {
  readonly archived: boolean;
  readonly limit: number;
  readonly after?: { readonly updatedAt: number; readonly id: string };
}

/**
 * A word in less than this share of recent chunks is read as a set (≈ 0.2 µs a chunk);
 * one in more is probed conversation by conversation as the list is walked (≈ 15 µs a
 * hit, ≈ 50 µs a miss). At 10k / 1M the two cost the same near 0.6; 0.5 errs to sets,
 * whose cost is bounded (≈ 3 ms for a word in every chunk).
 */
export const SETS_BELOW = 0.5;
/** A walk judges its hit rate only after this many conversations (a smaller sample is noise). */
export const WALK_SAMPLE = 16;
/** A walk that matched less than this share of the conversations it visited hands over to sets. */
export const WALK_MIN_HIT_RATE = 0.5;
/** A candidate set up to this size is fetched by rowid and sorted; a bigger one is met walking the index. */
const FETCH_BY_ROWID_MAX = 512;

type Stmt = ReturnType<Db["prepare"]>;

/** A conversation as the plans handle it: its place in the list and its rowid. */
interface Key {
  readonly rowid: number;
  readonly updated_at: number;
  readonly id: string;
}

/** The planner's thresholds; tests move them so a small corpus takes every path. */
export interface PlannerTuning {
  readonly setsBelow: number;
  readonly walkSample: number;
  readonly walkMinHitRate: number;
}

export class ConversationSearch {
  private readonly statements = new Map<string, Stmt>();

  constructor(
    private readonly db: Db,
    private readonly index: SearchIndex,
    /** The columns of a whole row, as the store reads them. */
    private readonly cols: string,
    private readonly tuning: PlannerTuning = { setsBelow: SETS_BELOW, walkSample: WALK_SAMPLE, walkMinHitRate: WALK_MIN_HIT_RATE },
  ) {}

  /** Conversations holding every one of `words` (FTS terms from toFtsWords), one page in list order. */
  find(words: readonly string[], page: SearchPage, plan: SearchPlan = "auto"): ConversationRow[] {
    this.index.clearHints();
    return this.rows(this.plan(words, page, plan));
  }

  /**
   * The plans walk keys only (rowid, updated_at, id: the list index covers them, no table
   * read); the page's whole rows are read once at the end, in the plan's order.
   */
  private rows(keys: readonly Key[]): ConversationRow[] {
    if (!keys.length) return [];
    let s = this.statements.get("rows");
    if (!s) {
      s = this.db.prepare(`SELECT ${this.cols} FROM conversations WHERE rowid IN (SELECT value FROM json_each(?))`);
      this.statements.set("rows", s);
    }
    const byRowid = new Map((s.all(JSON.stringify(keys.map((k) => k.rowid))) as ConversationRow[]).map((r) => [r.rowid, r]));
    return keys.map((k) => byRowid.get(k.rowid)).filter((r): r is ConversationRow => r !== undefined);
  }

  private plan(words: readonly string[], page: SearchPage, plan: SearchPlan): Key[] {
    if (plan === "sets") return this.fromSets(words.map((w) => this.index.conversationsWith(w)), [], page);
    if (plan === "walk") return this.walk(words, page, false);
    const rare: string[] = [];
    const frequent: string[] = [];
    for (const w of words) (this.isRare(w) ? rare : frequent).push(w);
    if (rare.length) return this.fromSets(rare.map((w) => this.index.conversationsWith(w)), frequent, page);
    return this.walk(words, page, true);
  }

  /**
   * Rare when an upper bound of its density is low. For 1–3 characters the prefix index
   * samples the term itself; a longer prefix would be expanded over every matching term
   * just to be sampled, so its first three characters (a superset) stand in. A dense
   * three-character stem with a rare word on it ("theorem") is caught by the walk's handover.
   */
  private isRare(term: string): boolean {
    const chars = [...term.slice(1, -2)];
    const bound = chars.length <= 3 ? term : `"${chars.slice(0, 3).join("")}"*`;
    return this.index.density(bound) < this.tuning.setsBelow;
  }

  private walk(words: readonly string[], page: SearchPage, adaptive: boolean): Key[] {
    const out: Key[] = [];
    let visited = 0;
    let handOverAfter: Key | null = null;
    for (const row of this.stmt("walk", page).iterate(this.params(page)) as IterableIterator<Key>) {
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
  private fromSets(sets: Set<number>[], probe: readonly string[], page: SearchPage): Key[] {
    sets.sort((a, b) => a.size - b.size);
    const [smallest, ...others] = sets;
    const candidates = [...smallest!].filter((r) => others.every((s) => s.has(r)));
    if (!candidates.length) return [];
    const matches = (row: Key) => probe.every((w) => this.index.has(row.rowid, w));
    const out: Key[] = [];
    if (candidates.length <= FETCH_BY_ROWID_MAX) {
      const params = { ...this.params(page), ids: JSON.stringify(candidates) };
      for (const row of this.stmt("byRowid", page).iterate(params) as IterableIterator<Key>) {
        if (matches(row) && out.push(row) >= page.limit) break;
      }
      return out;
    }
    const wanted = new Set(candidates);
    for (const row of this.stmt("walk", page).iterate(this.params(page)) as IterableIterator<Key>) {
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
      s = this.db.prepare(`SELECT rowid, updated_at, id FROM conversations WHERE ${where.join(" AND ")} ORDER BY updated_at DESC, id DESC`);
      this.statements.set(key, s);
    }
    return s;
  }
}
