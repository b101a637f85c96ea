import type { BriefLog } from "../../../application/schedules/brief-ports.js";
import type { Db } from "../database.js";

/**
 * What the morning brief counts, read from rows Coffer writes anyway: each turn's end
 * (`chat_turn_completed`) and each schedule run (`schedule_run`) in the audit log — on its
 * (action, at) index — and the queue table. No table of its own.
 */
export class SqliteBriefLog implements BriefLog {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      since: db.prepare(`SELECT details FROM audit_log WHERE action = ? AND at >= ? ORDER BY id`),
      queued: db.prepare(`SELECT conversation_id FROM pending_messages GROUP BY conversation_id ORDER BY MIN(created_at)`),
    };
  }

  turnsSince(since: number): { conversationId: string; status: string; stopReason: string | null }[] {
    return this.details("chat_turn_completed", since).flatMap((d) =>
      typeof d.conversation_id === "string" ? [{ conversationId: d.conversation_id, status: String(d.status ?? ""), stopReason: typeof d.stop_reason === "string" ? d.stop_reason : null }] : [],
    );
  }

  scheduleRunsSince(since: number): { name: string; status: string }[] {
    return this.details("schedule_run", since).map((d) => ({ name: typeof d.name === "string" ? d.name : "a schedule", status: String(d.status ?? "") }));
  }

  queuedConversations(): string[] {
    return (this.s.queued.all() as { conversation_id: string }[]).map((r) => r.conversation_id);
  }

  private details(action: string, since: number): Record<string, unknown>[] {
    return (this.s.since.all(action, since) as { details: string }[]).flatMap((r) => {
      try {
        const v: unknown = JSON.parse(r.details);
        return v && typeof v === "object" ? [v as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    });
  }
}
