import type { AttachmentOut } from "@coffer/protocol";
import type { AttachmentRow, AttachmentStore, AttachmentTotals } from "../../../application/attachments/attachment-ports.js";
import type { Db } from "../database.js";

interface Row {
  id: string;
  sha256: string;
  name: string;
  media_type: string;
  size: number;
}

const out = (r: Row & { caption?: string | null }): AttachmentOut => ({
  id: r.id,
  name: r.name,
  media_type: r.media_type,
  size: r.size,
  ...(r.caption ? { caption: r.caption } : {}),
});

/** AttachmentStore on better-sqlite3 (`attachments`, `message_attachments`, `pending_attachments`). */
export class SqliteAttachmentStore implements AttachmentStore {
  private readonly s;

  constructor(private readonly db: Db) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      insert: p("INSERT INTO attachments (id, sha256, name, media_type, size, created_at) VALUES (@id, @sha256, @name, @media_type, @size, @now)"),
      get: p("SELECT id, sha256, name, media_type, size FROM attachments WHERE id = ?"),
      link: p("INSERT INTO message_attachments (message_id, position, attachment_id) VALUES (?, ?, ?)"),
      append: p(`INSERT INTO message_attachments (message_id, position, attachment_id, caption)
                 SELECT @message, COALESCE(MAX(position) + 1, 0), @attachment, @caption FROM message_attachments WHERE message_id = @message`),
      ofConversation: p(`SELECT ma.attachment_id AS id FROM message_attachments ma JOIN messages m ON m.id = ma.message_id WHERE m.conversation_id = ?
                         UNION SELECT pa.attachment_id FROM pending_attachments pa JOIN pending_messages q ON q.id = pa.pending_id WHERE q.conversation_id = ?`),
      linked: p(`SELECT EXISTS (SELECT 1 FROM message_attachments WHERE attachment_id = ?)
                     OR EXISTS (SELECT 1 FROM pending_attachments WHERE attachment_id = ?) AS n`),
      delete: p("DELETE FROM attachments WHERE id = ?"),
      unlinkedBefore: p(`SELECT id FROM attachments a WHERE created_at < ? AND NOT EXISTS (SELECT 1 FROM message_attachments WHERE attachment_id = a.id)
                         AND NOT EXISTS (SELECT 1 FROM pending_attachments WHERE attachment_id = a.id) LIMIT ?`),
      hashInUse: p("SELECT EXISTS (SELECT 1 FROM attachments WHERE sha256 = ?) AS n"),
      // Bytes per file, not per row: one hash is one file on disk however many rows name it.
      totals: p(`SELECT (SELECT COUNT(*) FROM attachments) AS count, COUNT(*) AS files, COALESCE(SUM(size), 0) AS bytes
                 FROM (SELECT sha256, MAX(size) AS size FROM attachments GROUP BY sha256)`),
    };
  }

  insertAttachment(row: AttachmentRow, now: number): void {
    this.s.insert.run({ ...row, now });
  }

  getAttachment(id: string): AttachmentRow | null {
    return (this.s.get.get(id) as Row | undefined) ?? null;
  }

  linkMessage(messageId: string, attachmentIds: readonly string[]): void {
    attachmentIds.forEach((id, position) => this.s.link.run(messageId, position, id));
  }

  appendToMessage(messageId: string, attachmentId: string, caption?: string): void {
    this.s.append.run({ message: messageId, attachment: attachmentId, caption: caption || null });
  }

  forMessages(messageIds: readonly string[]): Map<string, AttachmentOut[]> {
    const found = new Map<string, AttachmentOut[]>();
    if (messageIds.length === 0) return found;
    // One query per page of messages (a page is at most 1000 rows: within SQLite's variable limit).
    const rows = this.db
      .prepare(
        `SELECT ma.message_id, ma.caption, a.id, a.sha256, a.name, a.media_type, a.size FROM message_attachments ma JOIN attachments a ON a.id = ma.attachment_id
         WHERE ma.message_id IN (${messageIds.map(() => "?").join(",")}) ORDER BY ma.message_id, ma.position`,
      )
      .all(...messageIds) as (Row & { message_id: string; caption: string | null })[];
    for (const r of rows) found.set(r.message_id, [...(found.get(r.message_id) ?? []), out(r)]);
    return found;
  }

  idsOfConversation(conversationId: string): string[] {
    return (this.s.ofConversation.all(conversationId, conversationId) as { id: string }[]).map((r) => r.id);
  }

  deleteUnlinked(ids: readonly string[]): string[] {
    const hashes: string[] = [];
    for (const id of ids) {
      if ((this.s.linked.get(id, id) as { n: number }).n) continue;
      const row = this.getAttachment(id);
      if (!row) continue;
      this.s.delete.run(id);
      hashes.push(row.sha256);
    }
    return hashes;
  }

  unlinkedBefore(cutoff: number, limit: number): string[] {
    return (this.s.unlinkedBefore.all(cutoff, limit) as { id: string }[]).map((r) => r.id);
  }

  hashInUse(sha256: string): boolean {
    return (this.s.hashInUse.get(sha256) as { n: number }).n === 1;
  }

  totals(): AttachmentTotals {
    return this.s.totals.get() as AttachmentTotals;
  }
}
