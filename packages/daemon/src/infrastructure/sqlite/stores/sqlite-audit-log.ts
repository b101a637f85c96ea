import type { AuditSink } from "../../../application/audit-ports.js";
import type { Db } from "../database.js";

/**
 * The audit log's writer: one row per use case's action. `filter` is applied to every row's
 * details before it is written (the daemon scrubs secrets and adds the verified principal there).
 * On the chat stores' handle, so a row written inside their transaction commits with it.
 */
export function sqliteAuditSink(db: Db, filter: (details: Record<string, unknown>) => Record<string, unknown> = (d) => d): AuditSink {
  const insert = db.prepare("INSERT INTO audit_log (at, actor, action, details) VALUES (?, ?, ?, ?)");
  return (actor, action, details, now) => {
    insert.run(now, actor, action, JSON.stringify(filter(details)));
  };
}
