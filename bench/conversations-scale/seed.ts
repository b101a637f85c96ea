import { randomUUID } from "node:crypto";
import { copyFileSync } from "node:fs";
import { openDatabase } from "../../packages/daemon/src/infrastructure/sqlite/database.js";
import { CHUNK_BYTES } from "../../packages/daemon/src/infrastructure/sqlite/search/search-index.js";
import { parseContent, searchableText } from "../../packages/daemon/src/infrastructure/sqlite/rows/chat-rows.js";
import { RARE_CONVERSATIONS, RARE_WORD, TextGenerator } from "./corpus.js";

export interface SeedPlan {
  readonly conversations: number;
  readonly messages: number;
  /** Conversations this long exist so "open the last 200 messages" reads a full page. */
  readonly longConversations: number;
  readonly longLength: number;
}

export const FULL_PLAN: SeedPlan = { conversations: 10_000, messages: 1_000_000, longConversations: 1_000, longLength: 500 };

export interface Seeded {
  readonly longConversationIds: string[];
  readonly rareConversationIds: string[];
  readonly archived: number;
  /** A word in about one conversation in ten. */
  readonly midWord: string;
  readonly ms: number;
}

const DAY = 86_400_000;

/**
 * A corpus seeded before (SCALE_SEEDED=<its coffer.db>, e.g. a kept run's): copied instead of
 * seeded again (4 minutes on a busy 2-core machine). The seed is deterministic, so the same
 * words and shapes are there; the ids are read back.
 */
export function reuseSeed(from: string, dbFile: string): Seeded {
  const started = Date.now();
  copyFileSync(from, dbFile);
  const db = openDatabase(dbFile);
  backfillStarts(db);
  const ids = (sql: string) => (db.prepare(sql).pluck().all() as string[]);
  const longConversationIds = ids(
    "SELECT conversation_id FROM messages WHERE seq = 499 AND conversation_id IN (SELECT id FROM conversations WHERE archived_at IS NULL) LIMIT 200",
  );
  const rareConversationIds = ids(`SELECT conversation_id FROM messages WHERE instr(content, '${RARE_WORD}') > 0`);
  const archived = db.prepare("SELECT count(*) FROM conversations WHERE archived_at IS NOT NULL").pluck().get() as number;
  db.close();
  return { longConversationIds, rareConversationIds, archived, midWord: new TextGenerator(7).midWord, ms: Date.now() - started };
}

/** Texts (index = seq) cut into chunks as SearchIndex.appendText cuts them, with each text's byte offset. */
function chunked(texts: readonly string[]): { body: string; starts: [number, number][] }[] {
  const out: { body: string; starts: [number, number][] }[] = [];
  let body = "";
  let bytes = 0;
  let starts: [number, number][] = [];
  texts.forEach((text, seq) => {
    if (!text) return;
    const size = Buffer.byteLength(text);
    if (body && bytes + size + 1 > CHUNK_BYTES) {
      out.push({ body, starts });
      body = "";
      starts = [];
    }
    starts.push([body ? bytes + 1 : 0, seq]);
    bytes = body ? bytes + 1 + size : size;
    body = body ? `${body}\n${text}` : text;
  });
  if (body) out.push({ body, starts });
  return out;
}

/**
 * A corpus seeded before migration 0012 has no message starts: fill them in as the daemon
 * would have written them (each chunk's texts are its messages' texts, in order).
 */
function backfillStarts(db: ReturnType<typeof openDatabase>): void {
  if (db.prepare("SELECT 1 FROM text_search_starts LIMIT 1").get()) return;
  const convs = db.prepare("SELECT rowid, id FROM conversations").raw().all() as [number, string][];
  const texts = db.prepare("SELECT seq, content FROM messages WHERE conversation_id = ? ORDER BY seq").raw();
  const chunksOf = db.prepare("SELECT chunk FROM text_search_chunks WHERE conv = ? ORDER BY chunk").pluck();
  const insertStart = db.prepare("INSERT INTO text_search_starts (chunk, offset, seq) VALUES (?, ?, ?)");
  db.transaction(() => {
    for (const [rowid, id] of convs) {
      const all: string[] = [];
      for (const [seq, content] of texts.all(id) as [number, string][]) all[seq] = searchableText(parseContent(content));
      const chunks = chunksOf.all(rowid) as number[];
      const cut = chunked(all.map((t) => t ?? ""));
      if (cut.length !== chunks.length) throw new Error(`conversation ${id}: ${chunks.length} chunks stored, ${cut.length} rebuilt`);
      cut.forEach((chunk, i) => {
        for (const [offset, seq] of chunk.starts) insertStart.run(chunks[i], offset, seq);
      });
    }
  })();
}

/**
 * Writes the data dir's coffer.db directly, through the daemon's own migrations, the way
 * the store would have left it: messages with JSON content blocks, each conversation's
 * title in title_search and its message texts in ~16 KB chunks of text_search.
 */
export function seed(dbFile: string, plan: SeedPlan = FULL_PLAN): Seeded {
  const started = Date.now();
  const db = openDatabase(dbFile);
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -262144");
  const insertConv = db.prepare(`INSERT INTO conversations (id, agent_key, title, title_set_by_owner, agent_config, created_at, updated_at, archived_at)
    VALUES (?, ?, ?, 0, ?, ?, ?, ?)`);
  const insertMsg = db.prepare(`INSERT INTO messages (id, conversation_id, seq, role, content, status, model_id, prompt_tokens, completion_tokens, created_at)
    VALUES (?, ?, ?, ?, ?, 'complete', ?, ?, ?, ?)`);
  const insertTitle = db.prepare("INSERT INTO title_search (rowid, title) VALUES (?, ?)");
  const insertChunk = db.prepare("INSERT INTO text_search (body) VALUES (?)");
  const mapChunk = db.prepare("INSERT INTO text_search_chunks (chunk, conv, bytes) VALUES (?, ?, ?)");
  const insertStart = db.prepare("INSERT INTO text_search_starts (chunk, offset, seq) VALUES (?, ?, ?)");
  // What SearchIndex.appendText would have built, message by message, written in one go.
  const writeChunks = (conv: number | bigint, texts: readonly string[]) => {
    for (const chunk of chunked(texts)) {
      const rowid = insertChunk.run(chunk.body).lastInsertRowid;
      mapChunk.run(rowid, conv, Buffer.byteLength(chunk.body));
      for (const [offset, seq] of chunk.starts) insertStart.run(rowid, offset, seq);
    }
  };

  const gen = new TextGenerator(7);
  const rare = new Set<number>();
  while (rare.size < RARE_CONVERSATIONS) rare.add(gen.int(0, plan.conversations - 1));
  const shortTotal = plan.messages - plan.longConversations * plan.longLength;
  const shortCount = plan.conversations - plan.longConversations;
  const now = Date.now();
  const longConversationIds: string[] = [];
  const rareConversationIds: string[] = [];
  let archived = 0;

  const writeConversation = (index: number) => {
    const id = randomUUID().replaceAll("-", "");
    const isLong = index % (plan.conversations / plan.longConversations) === 0;
    const shortIndex = index - Math.ceil(index / (plan.conversations / plan.longConversations));
    const length = isLong ? plan.longLength : Math.floor(shortTotal / shortCount) + (shortIndex < shortTotal % shortCount ? 1 : 0);
    const createdAt = now - 365 * DAY + gen.int(0, 360 * DAY);
    const firstText = gen.message(6, 30);
    const title = firstText.slice(0, 60);
    const isArchived = gen.chance(0.05);
    archived += isArchived ? 1 : 0;
    const model = gen.chance(0.5) ? "claude-sonnet-4-5" : "gpt-5-codex";
    const texts: string[] = [];
    const rows: unknown[][] = [];
    let at = createdAt;
    for (let seq = 0; seq < length; seq++) {
      const user = seq % 2 === 0;
      let text = seq === 0 ? firstText : user ? gen.message(6, 30) : gen.message(15, 60);
      if (seq === 1 && rare.has(index)) text = `${text} Remember the ${RARE_WORD} note.`;
      const blocks: unknown[] = [];
      if (!user && gen.chance(0.2)) {
        const toolId = `toolu_${seq}`;
        blocks.push({ type: "tool_use", tool_use_id: toolId, tool_name: "Bash", tool_input: { command: "npm test" } });
        blocks.push({ type: "tool_result", tool_use_id: toolId, tool_name: "Bash", output: "12 passed, 0 failed", error: null });
      }
      blocks.push({ type: "text", text });
      at += gen.int(1_000, 120_000);
      const tokens = user ? [null, null, null] : [model, gen.int(100, 4000), gen.int(10, 800)];
      rows.push([randomUUID().replaceAll("-", ""), id, seq, user ? "user" : "assistant", JSON.stringify(blocks), ...tokens, at]);
      texts.push(text);
    }
    const info = insertConv.run(id, "claude_code", title, "{}", createdAt, at, isArchived ? at + DAY : null);
    for (const row of rows) insertMsg.run(...row);
    insertTitle.run(info.lastInsertRowid, title);
    writeChunks(info.lastInsertRowid, texts);
    if (isLong && longConversationIds.length < 200 && !isArchived) longConversationIds.push(id);
    if (rare.has(index)) rareConversationIds.push(id);
  };

  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) writeConversation(i);
  });
  for (let from = 0; from < plan.conversations; from += 250) {
    batch(from, Math.min(plan.conversations, from + 250));
    if (process.stdout.isTTY) process.stdout.write(`\r  seeding… ${Math.min(plan.conversations, from + 250)}/${plan.conversations}`);
  }
  if (process.stdout.isTTY) process.stdout.write("\n");
  // A year of history is mostly idle for more than the 7-day default: keep it, so every
  // start measures the same data instead of the retention worker archiving it underneath.
  const keep = db.prepare("INSERT INTO settings (key, value, updated_at) VALUES (?, 'null', ?)");
  for (const key of ["retention.archive_after_days", "retention.delete_after_days"]) keep.run(key, now);
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  return { longConversationIds, rareConversationIds, archived, midWord: gen.midWord, ms: Date.now() - started };
}
