import type { ContextUsageEvent, ContextUsageOut } from "@coffer/protocol";
import type { ContextUsageStore } from "../../../application/turns/store-ports.js";
import type { Db } from "../database.js";

/** Each conversation's latest context usage (one row; gone with the conversation). */
export class SqliteContextStore implements ContextUsageStore {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      set: db.prepare(`INSERT INTO conversation_context (conversation_id, used_tokens, window_tokens, updated_at) VALUES (?, ?, ?, ?)
                       ON CONFLICT (conversation_id) DO UPDATE SET used_tokens = excluded.used_tokens,
                         window_tokens = COALESCE(excluded.window_tokens, conversation_context.window_tokens), updated_at = excluded.updated_at`),
      get: db.prepare("SELECT used_tokens, window_tokens, updated_at FROM conversation_context WHERE conversation_id = ?"),
    };
  }

  record(conversationId: string, usage: ContextUsageEvent, now: number): void {
    this.s.set.run(conversationId, usage.used_tokens, usage.window_tokens, now);
  }

  get(conversationId: string): ContextUsageOut | null {
    const row = this.s.get.get(conversationId) as { used_tokens: number; window_tokens: number | null; updated_at: number } | undefined;
    return row ? { used_tokens: row.used_tokens, window_tokens: row.window_tokens, updated_at: new Date(row.updated_at).toISOString() } : null;
  }
}
