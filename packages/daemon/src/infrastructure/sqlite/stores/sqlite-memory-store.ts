import type { MatchMode, MemoryFact, MemoryStore, ScopeFilter, ScoredFact } from "../../../application/vault/vault-ports.js";
import type { Db } from "../database.js";
import { vaultFtsQuery } from "../search/vault-fts-query.js";

// COLUMNS are the fields of MemoryFact (vault-ports.ts): a row is the fact, returned as it comes
// (docs/decisions.md, "Each record mapped once").
const COLUMNS = "f.id, f.scope, f.project, f.name, f.description, f.type, f.text, f.actor, f.created_at, f.updated_at";

/** Memory facts in SQLite; recall is FTS5 BM25 (a name match weighs double) or a plain substring scan. */
export class SqliteMemoryStore implements MemoryStore {
  private readonly insertStmt;
  private readonly getStmt;
  private readonly deleteStmt;

  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare(
      `INSERT INTO memory_facts (id, scope, project, name, description, type, text, actor, created_at, updated_at)
       VALUES (@id, @scope, @project, @name, @description, @type, @text, @actor, @created_at, @updated_at)`,
    );
    this.getStmt = db.prepare(`SELECT ${COLUMNS} FROM memory_facts f WHERE f.id = ?`);
    this.deleteStmt = db.prepare("DELETE FROM memory_facts WHERE id = ?");
  }

  insert(fact: MemoryFact): void {
    this.insertStmt.run(fact);
  }

  get(id: string): MemoryFact | null {
    return (this.getStmt.get(id) as MemoryFact | undefined) ?? null;
  }

  update(id: string, patch: Partial<Pick<MemoryFact, "text" | "name" | "description" | "type">>, now: number): boolean {
    const fields = (["text", "name", "description", "type"] as const).filter((k) => patch[k] !== undefined);
    const sets = [...fields.map((k) => `${k} = @${k}`), "updated_at = @now"].join(", ");
    return this.db.prepare(`UPDATE memory_facts SET ${sets} WHERE id = @id`).run({ ...patch, id, now }).changes > 0;
  }

  delete(id: string): boolean {
    return this.deleteStmt.run(id).changes > 0;
  }

  list(filter: ScopeFilter, limit: number, offset: number): { total: number; facts: MemoryFact[] } {
    const { where, params } = scopeWhere(filter);
    const total = (this.db.prepare(`SELECT count(*) AS n FROM memory_facts f WHERE ${where}`).get(params) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT ${COLUMNS} FROM memory_facts f WHERE ${where} ORDER BY f.updated_at DESC, f.pk DESC LIMIT @limit OFFSET @offset`)
      .all({ ...params, limit, offset }) as MemoryFact[];
    return { total, facts: rows };
  }

  search(query: string, filter: ScopeFilter, topK: number, mode: MatchMode): ScoredFact[] {
    const { where, params } = scopeWhere(filter);
    if (mode === "substring") {
      const rows = this.db
        .prepare(`SELECT ${COLUMNS} FROM memory_facts f WHERE ${where} AND instr(lower(f.text), lower(@q)) > 0 ORDER BY f.updated_at DESC LIMIT @topK`)
        .all({ ...params, q: query.trim(), topK }) as MemoryFact[];
      return rows.map((fact) => ({ fact, score: 1 }));
    }
    const match = vaultFtsQuery(query, mode);
    if (!match) return [];
    const rows = this.db
      .prepare(
        // ORDER BY the table's own rank column (bm25, name weighted double since 0007) lets
        // FTS5 hand rows over best first, so the LIMIT stops early instead of sorting every match.
        `SELECT ${COLUMNS}, memory_search.rank AS rank
         FROM memory_search JOIN memory_facts f ON f.pk = memory_search.rowid
         WHERE memory_search MATCH @match AND ${where}
         ORDER BY memory_search.rank LIMIT @topK`,
      )
      .all({ ...params, match, topK }) as (MemoryFact & { rank: number })[];
    return rows.map(({ rank, ...fact }) => ({ fact, score: -rank }));
  }
}

function scopeWhere(filter: ScopeFilter): { where: string; params: Record<string, unknown> } {
  const parts: string[] = [];
  if (filter.global) parts.push("f.scope = 'global'");
  if (filter.allProjects) parts.push("f.scope = 'project'");
  else if (filter.project !== null) parts.push("(f.scope = 'project' AND f.project = @project)");
  return { where: parts.length ? `(${parts.join(" OR ")})` : "0", params: filter.project === null ? {} : { project: filter.project } };
}
