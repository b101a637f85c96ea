import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { migrate, openDatabase } from "./database.js";
import { MIGRATIONS } from "./migrations/index.js";
import { toFtsWords } from "./rows/chat-rows.js";

const dirs: string[] = [];
function dbFile() {
  const dir = mkdtempSync(join(tmpdir(), "coffer-schema-"));
  dirs.push(dir);
  return join(dir, "coffer.db");
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

test("migrations build the schema the daemon relies on, in WAL mode, once", () => {
  const db = openDatabase(dbFile());
  expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
  expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
  expect(db.pragma("user_version", { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
  const columns = (table: string) => (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
  expect(columns("conversations")).toEqual(expect.arrayContaining([
    "id", "agent_key", "title", "model_id", "agent_config", "channel_name", "peer_chat_id", "channel_id",
    "created_at", "updated_at", "archived_at", "queue_paused",
  ]));
  expect(columns("messages")).toEqual(expect.arrayContaining([
    "id", "conversation_id", "seq", "role", "content", "status", "model_id", "prompt_tokens", "completion_tokens", "created_at", "voice",
  ]));
  expect(columns("audit_log")).toEqual(["id", "at", "actor", "action", "details"]);
  expect(columns("pending_messages")).toEqual(expect.arrayContaining(["id", "conversation_id", "position", "text", "voice"]));
  expect(columns("channels")).toEqual(expect.arrayContaining([
    "id", "kind", "name", "credential_refs", "default_agent", "default_cwd", "default_model", "enabled",
    "bot_id", "bot_username", "bot_name", "owner_chat_id", "owner_user_id", "owner_name", "paired_at",
    "cursor", "messages_in", "messages_out", "strangers_ignored", "created_at", "updated_at",
  ]));
  expect(columns("channel_chats")).toEqual(["channel_id", "chat_id", "thread_id", "active_conversation_id"]);
  expect(columns("channel_outbox")).toEqual(["id", "channel_id", "chat_id", "thread_id", "text", "html", "silent", "attempts", "created_at", "buttons", "file"]);
  const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all() as { name: string }[]).map((r) => r.name);
  expect(indexes).toEqual(expect.arrayContaining([
    "conversations_active_recent", "conversations_archived_recent", "messages_client_id",
    "channels_bot", "channel_outbox_order", "conversations_channel",
  ]));
  expect(migrate(db, MIGRATIONS)).toBe(0);
  // (conversation_id, seq) is unique.
  db.prepare("INSERT INTO conversations (id, agent_key, title, created_at, updated_at) VALUES ('c', 'a', 't', 0, 0)").run();
  const msg = db.prepare("INSERT INTO messages (id, conversation_id, seq, role, content, status, created_at) VALUES (?, 'c', 0, 'user', '[]', 'complete', 0)");
  msg.run("m1");
  expect(() => msg.run("m2")).toThrow(/UNIQUE/);
  db.close();
});

test("the list uses its index and the search its FTS table", () => {
  const db = openDatabase(dbFile());
  const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(" | ");
  expect(plan("SELECT id FROM conversations WHERE archived_at IS NULL ORDER BY updated_at DESC, id DESC LIMIT 50")).toContain("conversations_active_recent");
  expect(plan("SELECT id FROM channel_outbox WHERE channel_id = 'x' ORDER BY id LIMIT 10")).toContain("channel_outbox_order");
  expect(plan("SELECT COUNT(*) FROM conversations WHERE channel_id = 'x'")).toContain("conversations_channel");
  db.close();
});

test("owner text becomes safe prefix terms", () => {
  expect(toFtsWords("Deploy the API the")).toEqual(['"deploy"*', '"the"*', '"api"*']);
  expect(toFtsWords('"; DROP TABLE x; -- NEAR(')).toEqual(['"drop"*', '"table"*', '"x"*', '"near"*']);
  expect(toFtsWords("!!!")).toBeNull();
});
