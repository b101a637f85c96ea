// The audit log's read port. Adapter: infrastructure/sqlite/sqlite-audit-reader.ts.

export interface AuditRow {
  readonly id: number;
  readonly at: number;
  readonly actor: string;
  readonly action: string;
  readonly details: Record<string, unknown>;
}

/** Reading the audit log (writing goes through each use case's store). */
export interface AuditReader {
  list(query: { action?: string; before?: number; limit: number }): AuditRow[];
}
