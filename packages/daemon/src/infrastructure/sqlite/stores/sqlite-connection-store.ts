import type { Connection, ConnectionStore } from "../../../application/connections/ports.js";
import type { Db } from "../database.js";

/** The row as SQLite gives it: the record (Connection), its flag a 0/1 integer. */
type Row = Omit<Connection, "internal_default"> & { internal_default: number };

const COLS = "id, name, wire, base_url, model, credential_ref, internal_default, created_at, updated_at";

/** The row is the record (docs/decisions.md, "Each record mapped once"): only the flag is turned into a boolean. */
const toConnection = (r: Row): Connection => ({ ...r, internal_default: r.internal_default === 1 });

/** LLM connections. A row names its credential by ref only; it has no column a secret could go in. */
export class SqliteConnectionStore implements ConnectionStore {
  private readonly s;

  constructor(private readonly db: Db) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      list: p(`SELECT ${COLS} FROM llm_connections ORDER BY name`),
      get: p(`SELECT ${COLS} FROM llm_connections WHERE id = ?`),
      byName: p(`SELECT ${COLS} FROM llm_connections WHERE name = ?`),
      internalDefault: p(`SELECT ${COLS} FROM llm_connections WHERE internal_default = 1`),
      insert: p(`INSERT INTO llm_connections (${COLS})
                 VALUES (@id, @name, @wire, @base_url, @model, @credential_ref, 0, @created_at, @updated_at)`),
      update: p(`UPDATE llm_connections SET name = @name, wire = @wire, base_url = @base_url, model = @model,
                 credential_ref = @credential_ref, updated_at = @updated_at WHERE id = @id`),
      delete: p("DELETE FROM llm_connections WHERE id = ?"),
      clearDefault: p("UPDATE llm_connections SET internal_default = 0, updated_at = ? WHERE internal_default = 1"),
      setDefault: p("UPDATE llm_connections SET internal_default = 1, updated_at = ? WHERE id = ?"),
    };
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  list(): Connection[] {
    return (this.s.list.all() as Row[]).map(toConnection);
  }

  get(id: string): Connection | null {
    const r = this.s.get.get(id) as Row | undefined;
    return r ? toConnection(r) : null;
  }

  findByName(name: string): Connection | null {
    const r = this.s.byName.get(name) as Row | undefined;
    return r ? toConnection(r) : null;
  }

  internalDefault(): Connection | null {
    const r = this.s.internalDefault.get() as Row | undefined;
    return r ? toConnection(r) : null;
  }

  insert(c: Connection): void {
    this.s.insert.run(c);
  }

  update(c: Connection): void {
    this.s.update.run(c);
  }

  delete(id: string): boolean {
    return this.s.delete.run(id).changes > 0;
  }

  setInternalDefault(id: string | null, now: number): void {
    this.transaction(() => {
      this.s.clearDefault.run(now);
      if (id) this.s.setDefault.run(now, id);
    });
  }
}
