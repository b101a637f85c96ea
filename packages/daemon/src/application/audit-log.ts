import type { AuditActor, AuditListOut, AuditListQuery } from "@coffer/protocol";
import type { AuditReader } from "./audit-ports.js";

export type { AuditReader, AuditRow, AuditSink } from "./audit-ports.js";


/**
 * Who made a change: the audit actor, the details naming them (which agent, which
 * conversation), and the short name a memory fact shows as its author.
 */
export interface Author {
  readonly actor: AuditActor;
  readonly details: Record<string, unknown>;
  readonly name: string;
}

/** The owner, through REST (the daemon token). */
export const OWNER_AUTHOR: Author = { actor: "user", details: {}, name: "owner" };

const DEFAULT_PAGE = 100;

export function listAudit(reader: AuditReader, query: AuditListQuery): AuditListOut {
  const limit = query.limit ?? DEFAULT_PAGE;
  const rows = reader.list({ action: query.action, before: query.before, limit: limit + 1 });
  const page = rows.slice(0, limit);
  return {
    entries: page.map((r) => ({ id: r.id, at: new Date(r.at).toISOString(), actor: r.actor, principal: r.principal, action: r.action, details: r.details })),
    next_before: rows.length > limit ? (page[page.length - 1]?.id ?? null) : null,
  };
}
