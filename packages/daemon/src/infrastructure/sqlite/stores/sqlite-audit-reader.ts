import type { AuditReader, AuditRow } from "../../../application/audit-ports.js";
import { AuditPrincipal } from "@coffer/protocol";
import type { Db } from "../database.js";
import { PRINCIPAL_KEY } from "../rows/audit-principal.js";

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
    return rows.map((r) => ({ ...r, ...splitPrincipal(parseDetails(r.details)) }));
  }
}

/**
 * The principal is stored inside the row's details JSON under PRINCIPAL_KEY (no schema
 * change, old rows stay valid) and handed to readers as its own field.
 */
function splitPrincipal(stored: Record<string, unknown>): { details: Record<string, unknown>; principal: AuditPrincipal | null } {
  const { [PRINCIPAL_KEY]: raw, ...details } = stored;
  const parsed = AuditPrincipal.safeParse(raw);
  return { details, principal: parsed.success ? parsed.data : null };
}

function parseDetails(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
