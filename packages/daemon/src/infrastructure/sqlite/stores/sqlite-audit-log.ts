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

/**
 * Drops audit rows written before a time, oldest first. The log is append-only, so rows come in
 * id order with their times: the walk reads from the oldest id in batches and stops at the
 * first row inside the window (no index on `at` needed). Returns how many rows went.
 */
export function sqliteAuditPruner(db: Db, batch = 5_000): (before: number) => number {
  const oldest = db.prepare("SELECT id, at FROM audit_log ORDER BY id LIMIT ?");
  const drop = db.prepare("DELETE FROM audit_log WHERE id <= ?");
  return (before) => {
    let removed = 0;
    for (;;) {
      const rows = oldest.all(batch) as { id: number; at: number }[];
      const stale = rows.findIndex((r) => r.at >= before);
      const last = stale === -1 ? rows.at(-1) : rows[stale - 1];
      if (!last) return removed;
      removed += drop.run(last.id).changes;
      if (stale !== -1 || rows.length < batch) return removed;
    }
  };
}
