// The audit log's read port. Adapter: infrastructure/sqlite/stores/sqlite-audit-reader.ts.
import type { AuditAction, AuditActor, AuditPrincipal } from "@coffer/protocol";

export interface AuditRow {
  readonly id: number;
  readonly at: number;
  readonly actor: AuditActor;
  /** Who the daemon verified (null: its own work, or a row from before issue 21). */
  readonly principal: AuditPrincipal | null;
  readonly action: AuditAction;
  readonly details: Record<string, unknown>;
}

/** Reading the audit log (writing goes through each use case's store). */
export interface AuditReader {
  list(query: { action?: AuditAction; before?: number; limit: number }): AuditRow[];
}
