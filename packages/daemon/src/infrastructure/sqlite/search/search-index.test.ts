import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { openDatabase, type Db } from "../database.js";
import { CHUNK_BYTES, SearchIndex } from "./search-index.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function setup(): { db: Db; index: SearchIndex; find: (q: string) => number[] } {
  const dir = mkdtempSync(join(tmpdir(), "coffer-search-"));
  dirs.push(dir);
  const db = openDatabase(join(dir, "coffer.db"));
  const index = new SearchIndex(db);
  for (const id of [1, 2, 3]) {
    db.prepare("INSERT INTO conversations (rowid, id, agent_key, title, created_at, updated_at) VALUES (?, ?, 'a', ?, 0, 0)").run(id, `c${id}`, `conversation ${id}`);
    index.addTitle(id, id === 3 ? "Kubernetes notes" : `conversation ${id}`);
  }
  const find = (q: string) => {
    const m = index.match(q)!;
    return (db.prepare(`SELECT rowid FROM conversations WHERE ${m.sql} ORDER BY rowid`).all(m.params) as { rowid: number }[]).map((r) => r.rowid);
  };
  return { db, index, find };
}

test("text goes into bounded chunks, so an append never rewrites a whole conversation", () => {
  const { db, index } = setup();
  const line = "x".repeat(1000);
  for (let i = 0; i < 100; i++) index.appendText(1, line, i);
  const chunks = db.prepare("SELECT bytes FROM text_search_chunks WHERE conv = 1").all() as { bytes: number }[];
  expect(chunks.length).toBeGreaterThan(5);
  expect(Math.max(...chunks.map((c) => c.bytes))).toBeLessThanOrEqual(CHUNK_BYTES);
});

test("every word must match, each in the title or any chunk of the same conversation", () => {
  const { index, find } = setup();
  index.appendText(1, "we deploy on fridays", 0);
  for (let i = 0; i < 40; i++) index.appendText(1, "filler ".repeat(100), i + 1);
  index.appendText(1, "the rollback plan", 41);
  index.appendText(2, "deploy only", 0);
  index.appendText(3, "rollback drills", 0);
  expect(find("deploy")).toEqual([1, 2]);
  expect(find("deplo rollb")).toEqual([1]); // words in different chunks, as prefixes
  expect(find("kubernetes rollback")).toEqual([3]); // title + text
  expect(find("nothing")).toEqual([]);
  expect(index.match("?!")).toBeNull();
});

test("removing a conversation removes its title and every chunk", () => {
  const { db, index, find } = setup();
  for (let i = 0; i < 30; i++) index.appendText(2, "deploy ".repeat(200), i);
  index.remove(2);
  expect(find("deploy")).toEqual([]);
  expect((db.prepare("SELECT COUNT(*) AS n FROM text_search_chunks WHERE conv = 2").get() as { n: number }).n).toBe(0);
  expect((db.prepare("SELECT COUNT(*) AS n FROM text_search").get() as { n: number }).n).toBe(0);
  expect((db.prepare("SELECT COUNT(*) AS n FROM text_search_starts").get() as { n: number }).n).toBe(0);
});

test("each message's text is recorded where it starts in its chunk, in UTF-8 bytes", () => {
  const { db, index } = setup();
  index.appendText(1, "héllo wörld", 0); // 13 bytes, 11 characters
  index.appendText(1, "second", 1);
  index.appendText(1, "x".repeat(CHUNK_BYTES), 2); // does not fit: a chunk of its own
  const starts = db.prepare("SELECT chunk, offset, seq FROM text_search_starts ORDER BY chunk, offset").all() as { chunk: number; offset: number; seq: number }[];
  const [first, second, third] = starts;
  expect(starts).toHaveLength(3);
  expect([first!.offset, first!.seq]).toEqual([0, 0]);
  expect([second!.chunk, second!.offset, second!.seq]).toEqual([first!.chunk, 14, 1]);
  expect(third!.chunk).not.toBe(first!.chunk);
  expect([third!.offset, third!.seq]).toEqual([0, 2]);
});

test("a chunk written before message starts were recorded gets none (its byte count may be characters)", () => {
  const { db, index } = setup();
  index.appendText(1, "old text", 0);
  db.prepare("DELETE FROM text_search_starts").run(); // as a chunk from before migration 0012
  index.appendText(1, "new text", 1);
  expect((db.prepare("SELECT COUNT(*) AS n FROM text_search_starts").get() as { n: number }).n).toBe(0);
});
