import type { AuditSink } from "../../../application/audit-ports.js";
import type { Transactor } from "../../../application/ports.js";
import type { Db } from "../database.js";
import { SearchIndex } from "../search/search-index.js";
import { sqliteAuditSink } from "./sqlite-audit-log.js";
import { SqliteConversationStore } from "./sqlite-conversation-store.js";
import { SqliteMessageStore } from "./sqlite-message-store.js";
import { SqlitePendingStore } from "./sqlite-pending-store.js";

/** The chat's stores on one database handle, with the transaction that spans them. */
export interface SqliteChatStores {
  /** better-sqlite3 transactions nest (savepoints): a store's own inside this one joins it. */
  readonly tx: Transactor;
  readonly conversations: SqliteConversationStore;
  readonly messages: SqliteMessageStore;
  readonly pending: SqlitePendingStore;
  readonly audit: AuditSink;
}

/**
 * Opens the conversation, message and pending stores and the audit writer on `db`. The
 * conversation and message stores share one SearchIndex: messages feed it, conversations search it.
 */
export function openChatStores(db: Db, auditFilter?: (details: Record<string, unknown>) => Record<string, unknown>): SqliteChatStores {
  const search = new SearchIndex(db);
  return {
    tx: { transaction: (fn) => db.transaction(fn)() },
    conversations: new SqliteConversationStore(db, search),
    messages: new SqliteMessageStore(db, search),
    pending: new SqlitePendingStore(db),
    audit: sqliteAuditSink(db, auditFilter),
  };
}
