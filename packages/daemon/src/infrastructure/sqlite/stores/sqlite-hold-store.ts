import type { HoldStore, StoredHold } from "../../../application/turns/store-ports.js";
import type { Db } from "../database.js";

/** Plan-limit holds, one row per held conversation (gone with the conversation). */
export class SqliteHoldStore implements HoldStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      save: db.prepare(`INSERT INTO queue_holds (conversation_id, reason, until_ms, created_at) VALUES (?, 'plan_limit', ?, ?)
                        ON CONFLICT (conversation_id) DO UPDATE SET until_ms = excluded.until_ms, created_at = excluded.created_at`),
      remove: db.prepare("DELETE FROM queue_holds WHERE conversation_id = ?"),
      list: db.prepare("SELECT conversation_id, until_ms FROM queue_holds ORDER BY until_ms"),
    };
  }

  save(conversationId: string, until: number, now: number): void {
    this.s.save.run(conversationId, until, now);
  }

  remove(conversationId: string): void {
    this.s.remove.run(conversationId);
  }

  list(): StoredHold[] {
    return (this.s.list.all() as { conversation_id: string; until_ms: number }[]).map((r) => ({ conversationId: r.conversation_id, until: r.until_ms }));
  }
}
