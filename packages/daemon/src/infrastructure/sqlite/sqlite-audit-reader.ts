import type { AuditReader, AuditRow } from "../../application/audit-ports.js";
import type { Db } from "./database.js";

export class SqliteAuditReader implements AuditReader {
  private readonly s;

  constructor(db: Db) {
    const cols = "id, at, actor, action, details";
    this.s = {
      all: db.prepare(`SELECT ${cols} FROM audit_log WHERE id < @before ORDER BY id DESC LIMIT @limit`),
      byAction: db.prepare(`SELECT ${cols} FROM audit_log WHERE action = @action AND id < @before ORDER BY id DESC LIMIT @limit`),
    };
  }

  list(query: { action?: string; before?: number; limit: number }): AuditRow[] {
    const params = { action: query.action, before: query.before ?? Number.MAX_SAFE_INTEGER, limit: query.limit };
    const rows = (query.action ? this.s.byAction.all(params) : this.s.all.all(params)) as (Omit<AuditRow, "details"> & {
      details: string;
    })[];
    return rows.map((r) => ({ ...r, details: parseDetails(r.details) }));
  }
}

function parseDetails(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
