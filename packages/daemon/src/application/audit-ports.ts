// The audit log's ports. Adapters: infrastructure/sqlite/stores/sqlite-audit-reader.ts (read) and sqlite-audit-log.ts (write).
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

/** Whatever records who did what (the audit log); never given a secret. */
export type AuditSink = (actor: AuditActor, action: AuditAction, details: Record<string, unknown>, now: number) => void;

/** Reading the audit log (writing goes through an AuditSink). */
export interface AuditReader {
  list(query: { action?: AuditAction; before?: number; limit: number }): AuditRow[];
}
