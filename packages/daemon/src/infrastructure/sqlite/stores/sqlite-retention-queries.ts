import type { RetentionCandidates } from "../../../application/retention/ports.js";
import type { Db } from "../database.js";

/**
 * Which conversations a retention pass may touch. A conversation with queued messages is
 * never a candidate; the worker also asks the turn engine about a running turn.
 */
export class SqliteRetentionQueries implements RetentionCandidates {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      // updated_at moves with every turn (and renames), so it is never older than the last message.
      idle: db.prepare(`SELECT id FROM conversations c
                        WHERE archived_at IS NULL AND updated_at < ?
                          AND NOT EXISTS (SELECT 1 FROM pending_messages p WHERE p.conversation_id = c.id)
                        ORDER BY updated_at LIMIT ?`),
      expired: db.prepare(`SELECT id FROM conversations c
                           WHERE archived_at IS NOT NULL AND archived_at < ?
                             AND NOT EXISTS (SELECT 1 FROM pending_messages p WHERE p.conversation_id = c.id)
                           ORDER BY archived_at LIMIT ?`),
      hasPending: db.prepare("SELECT 1 FROM pending_messages WHERE conversation_id = ? LIMIT 1"),
    };
  }

  idleSince(cutoff: number, limit: number): string[] {
    return (this.s.idle.all(cutoff, limit) as { id: string }[]).map((r) => r.id);
  }

  archivedBefore(cutoff: number, limit: number): string[] {
    return (this.s.expired.all(cutoff, limit) as { id: string }[]).map((r) => r.id);
  }

  hasQueuedMessages(conversationId: string): boolean {
    return this.s.hasPending.get(conversationId) !== undefined;
  }
}
