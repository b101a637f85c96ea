// The audit log's read port. Adapter: infrastructure/sqlite/sqlite-audit-reader.ts.
import type { AuditAction, AuditActor } from "@coffer/protocol";

export interface AuditRow {
  readonly id: number;
  readonly at: number;
  readonly actor: AuditActor;
  readonly action: AuditAction;
  readonly details: Record<string, unknown>;
}

/** Reading the audit log (writing goes through each use case's store). */
export interface AuditReader {
  list(query: { action?: AuditAction; before?: number; limit: number }): AuditRow[];
}
