import type { AuditListOut, AuditListQuery } from "@coffer/protocol";
import type { AuditReader } from "./audit-ports.js";

export type { AuditReader, AuditRow } from "./audit-ports.js";

const DEFAULT_PAGE = 100;

export function listAudit(reader: AuditReader, query: AuditListQuery): AuditListOut {
  const limit = query.limit ?? DEFAULT_PAGE;
  const rows = reader.list({ action: query.action, before: query.before, limit: limit + 1 });
  const page = rows.slice(0, limit);
  return {
    entries: page.map((r) => ({ id: r.id, at: new Date(r.at).toISOString(), actor: r.actor, action: r.action, details: r.details })),
    next_before: rows.length > limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}
