import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { migrate, openDatabase } from "../database.js";
import { SqliteChannelStore } from "../stores/sqlite-channel-store.js";
import { MIGRATIONS } from "./index.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

test("0020 moves each channel's bot_token_ref into its credential map as bot_token, and drops the column", () => {
  const dir = mkdtempSync(join(tmpdir(), "coffer-mig21-"));
  dirs.push(dir);
  const before = MIGRATIONS.filter((m) => m.version < 20);
  const db = openDatabase(join(dir, "coffer.db"), before);
  db.prepare(
    `INSERT INTO channels (id, kind, name, bot_token_ref, default_agent, enabled, update_offset, created_at, updated_at)
     VALUES ('c1', 'telegram', 'phone', 'tg-bot', 'scripted', 1, 42, 1, 1)`,
  ).run();
  expect(migrate(db, MIGRATIONS)).toBeGreaterThan(0);
  const columns = (db.prepare("PRAGMA table_info(channels)").all() as { name: string }[]).map((c) => c.name);
  expect(columns).toContain("credential_refs");
  expect(columns).not.toContain("bot_token_ref");
  const channel = new SqliteChannelStore(db).get("c1");
  // The rest of the row is untouched (the offset most of all: nothing is redelivered).
  expect(channel).toMatchObject({ credentialRefs: { bot_token: "tg-bot" }, cursor: "42", name: "phone" });
  db.close();
});

test("0021 turns each channel's update offset into its text cursor (0 = none yet) and drops the column", () => {
  const dir = mkdtempSync(join(tmpdir(), "coffer-mig21-"));
  dirs.push(dir);
  const db = openDatabase(join(dir, "coffer.db"), MIGRATIONS.filter((m) => m.version < 21));
  const insert = db.prepare(
    `INSERT INTO channels (id, kind, name, credential_refs, default_agent, enabled, update_offset, created_at, updated_at)
     VALUES (?, 'telegram', ?, '{}', 'scripted', 1, ?, 1, 1)`,
  );
  insert.run("c1", "phone", 987_654_321);
  insert.run("c2", "fresh", 0);
  expect(migrate(db, MIGRATIONS)).toBe(1);
  const columns = (db.prepare("PRAGMA table_info(channels)").all() as { name: string }[]).map((c) => c.name);
  expect(columns).not.toContain("update_offset");
  const store = new SqliteChannelStore(db);
  // Resumed exactly where the poll was: nothing redelivered, nothing skipped.
  expect(store.get("c1")?.cursor).toBe("987654321");
  expect(store.get("c2")?.cursor).toBeNull();
  db.close();
});
