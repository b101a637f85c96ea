import type { AttachmentOut } from "@coffer/protocol";
import type { LaterRef, LaterRow, PendingPreviewRow, PendingRow, PendingStore } from "../../../application/ports.js";
import type { Db } from "../database.js";
import { parseScheduleRef } from "../rows/chat-rows.js";

/** PendingStore on better-sqlite3: each conversation's durable FIFO queue (`pending_messages`). */
export class SqlitePendingStore implements PendingStore {
  private readonly s;

  constructor(private readonly db: Db) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      withPending: p("SELECT DISTINCT conversation_id AS id FROM pending_messages"),
      withUnscheduled: p("SELECT DISTINCT conversation_id AS id FROM pending_messages WHERE send_at IS NULL"),
      listLater: p("SELECT id, conversation_id, send_at, send_when, send_missed FROM pending_messages WHERE send_at IS NOT NULL ORDER BY send_at, position"),
      setLater: p("UPDATE pending_messages SET send_at = ?, send_when = ?, send_missed = ? WHERE id = ?"),
      countPending: p("SELECT COUNT(*) AS n FROM pending_messages WHERE conversation_id = ?"),
      // SQLite reads only what substr needs; a frame never loads the whole queued texts.
      listPendingPreviews: p("SELECT id, substr(text, 1, ?) AS head, length(text) AS length, voice, schedule, send_at, send_when, send_missed FROM pending_messages WHERE conversation_id = ? ORDER BY position"),
      listPending: p("SELECT id, text, client_id, voice, schedule, send_at, send_when, send_missed FROM pending_messages WHERE conversation_id = ? ORDER BY position"),
      nextPosition: p("SELECT COALESCE(MAX(position) + 1, 0) AS position FROM pending_messages WHERE conversation_id = ?"),
      insertPending: p(`INSERT INTO pending_messages (id, conversation_id, position, text, client_id, created_at, voice, schedule, send_at, send_when, send_missed)
                        VALUES (@id, @conversationId, @position, @text, @clientId, @now, @voice, @schedule, @sendAt, @sendWhen, @sendMissed)`),
      clearPending: p("DELETE FROM pending_messages WHERE conversation_id = ?"),
      deletePending: p("DELETE FROM pending_messages WHERE id = ?"),
      linkAttachment: p("INSERT INTO pending_attachments (pending_id, position, attachment_id) VALUES (?, ?, ?)"),
      queueAttachments: p(`SELECT pa.pending_id, a.id, a.name, a.media_type, a.size FROM pending_attachments pa
                           JOIN pending_messages q ON q.id = pa.pending_id JOIN attachments a ON a.id = pa.attachment_id
                           WHERE q.conversation_id = ? ORDER BY pa.pending_id, pa.position`),
      pendingByClient: p("SELECT id, text, client_id, voice, schedule, send_at, send_when, send_missed FROM pending_messages WHERE conversation_id = ? AND client_id = ?"),
    };
  }

  /** Each queued row's files, in order, by row id (one query for the whole queue). */
  private filesOf(conversationId: string): Map<string, AttachmentOut[]> {
    const files = new Map<string, AttachmentOut[]>();
    for (const a of this.s.queueAttachments.all(conversationId) as (AttachmentOut & { pending_id: string })[]) {
      files.set(a.pending_id, [...(files.get(a.pending_id) ?? []), { id: a.id, name: a.name, media_type: a.media_type, size: a.size }]);
    }
    return files;
  }

  listPending(conversationId: string): PendingRow[] {
    const files = this.filesOf(conversationId);
    return (this.s.listPending.all(conversationId) as PendingDbRow[]).map((r) => ({
      ...toPendingRow(r),
      ...(files.has(r.id) ? { attachments: files.get(r.id)! } : {}),
    }));
  }

  /** A queued row and its files' links (the links cascade when the row goes). */
  private insert(conversationId: string, row: PendingRow, position: number, now: number): void {
    this.s.insertPending.run({ id: row.id, conversationId, position, text: row.text, clientId: row.clientId, now, voice: row.voice ? 1 : 0, schedule: row.schedule ? JSON.stringify(row.schedule) : null, ...laterColumns(row.later ?? null) });
    (row.attachments ?? []).forEach((a, i) => this.s.linkAttachment.run(row.id, i, a.id));
  }

  countPending(conversationId: string): number {
    return (this.s.countPending.get(conversationId) as { n: number }).n;
  }

  listPendingPreviews(conversationId: string, chars: number): PendingPreviewRow[] {
    // The files go with the preview: a queued row shows its files wherever the queue is shown.
    const files = this.filesOf(conversationId);
    const rows = this.s.listPendingPreviews.all(chars, conversationId) as ({ id: string; head: string; length: number; voice: number; schedule: string | null } & LaterColumns)[];
    return rows.map(({ voice, schedule: raw, send_at, send_when, send_missed, ...r }) => {
      const schedule = parseScheduleRef(raw);
      const later = toLaterRef({ send_at, send_when, send_missed });
      return { ...r, ...(voice === 1 ? { voice: true } : {}), ...(schedule ? { schedule } : {}), ...(later ? { later } : {}), ...(files.has(r.id) ? { attachments: files.get(r.id)! } : {}) };
    });
  }

  appendPending(conversationId: string, row: PendingRow, now: number): void {
    this.transaction(() => {
      const { position } = this.s.nextPosition.get(conversationId) as { position: number };
      this.insert(conversationId, row, position, now);
    });
  }

  replacePending(conversationId: string, rows: readonly PendingRow[], now: number): void {
    this.transaction(() => {
      this.s.clearPending.run(conversationId);
      rows.forEach((row, position) => this.insert(conversationId, row, position, now));
    });
  }

  deletePending(id: string): void {
    this.s.deletePending.run(id);
  }

  findPendingByClientId(conversationId: string, clientId: string): PendingRow | null {
    const r = this.s.pendingByClient.get(conversationId, clientId) as PendingDbRow | undefined;
    return r ? toPendingRow(r) : null;
  }

  conversationsWithPending(unscheduledOnly = false): string[] {
    return ((unscheduledOnly ? this.s.withUnscheduled : this.s.withPending).all() as { id: string }[]).map((r) => r.id);
  }

  listLater(): LaterRow[] {
    return (this.s.listLater.all() as ({ id: string; conversation_id: string } & LaterColumns)[]).map((r) => ({ id: r.id, conversationId: r.conversation_id, later: toLaterRef(r)! }));
  }

  setLater(id: string, later: LaterRef | null): void {
    const c = laterColumns(later);
    this.s.setLater.run(c.sendAt, c.sendWhen, c.sendMissed, id);
  }

  private transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }
}

interface LaterColumns {
  send_at: number | null;
  send_when: string | null;
  send_missed: number;
}

interface PendingDbRow extends LaterColumns {
  id: string;
  text: string;
  client_id: string | null;
  voice: number;
  schedule: string | null;
}

function toPendingRow(r: PendingDbRow): PendingRow {
  const schedule = parseScheduleRef(r.schedule);
  const later = toLaterRef(r);
  return { id: r.id, text: r.text, clientId: r.client_id, ...(r.voice === 1 ? { voice: true } : {}), ...(schedule ? { schedule } : {}), ...(later ? { later } : {}) };
}

function toLaterRef(r: LaterColumns): LaterRef | null {
  if (r.send_at === null) return null;
  return { at: r.send_at, when: r.send_when === "limit_reset" ? "limit_reset" : "at", ...(r.send_missed === 1 ? { missed: true } : {}) };
}

function laterColumns(later: LaterRef | null): { sendAt: number | null; sendWhen: string | null; sendMissed: number } {
  return { sendAt: later?.at ?? null, sendWhen: later?.when ?? null, sendMissed: later?.missed ? 1 : 0 };
}
