import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acceptance } from "../../../../test/support/acceptance.js";
import { toFtsWords, type ConversationRow } from "../rows/chat-rows.js";
import { ConversationSearch, type SearchPage, type SearchPlan } from "./conversation-search.js";
import { openDatabase, type Db } from "../database.js";
import { SearchIndex } from "./search-index.js";
import { openChatStores } from "../stores/sqlite-chat-stores.js";
import type { SqliteConversationStore } from "../stores/sqlite-conversation-store.js";
import type { SqliteMessageStore } from "../stores/sqlite-message-store.js";
import { prng } from "../../../../test/support/prng.js";

const COLS = "rowid, id, agent_key, title, title_set_by_owner, model_id, agent_config, channel_name, peer_chat_id, channel_id, queue_paused, created_at, updated_at, archived_at";

// Frequent words first (a Zipf-like pick favours them), then odd cases the probes must get
// exactly as FTS5 does: diacritics, other scripts, digits, underscores, case.
const VOCAB = [
  "the", "of", "and", "find", "that", "deploy", "server", "rollback", "config", "branch", "merge", "failing",
  "refind", "finder", "Find", "FIND", "x_find", "café", "Ünïcode", "naïve", "日本語", "deploy2", "v8", "déployer",
  "quokkaphant", "kubernetes", "zebra", "fjord", "ångström", "x", "th", "theory",
];

let dir: string;
let db: Db;
let store: SqliteConversationStore;
let messageStore: SqliteMessageStore;
let index: SearchIndex;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "coffer-planner-"));
  db = openDatabase(join(dir, "coffer.db"));
  ({ conversations: store, messages: messageStore } = openChatStores(db));
  index = new SearchIndex(db);
  const random = prng(16);
  const pick = () => VOCAB[Math.min(VOCAB.length - 1, Math.floor(VOCAB.length * random() ** 2.5))]!;
  const sentence = (n: number) => Array.from({ length: n }, pick).join(" ");
  for (let c = 0; c < 200; c++) {
    const id = `conv${String(c).padStart(4, "0")}`;
    // Titles: some hold words no message has, so a title-only match is in the corpus.
    store.insertConversation({ id, agentKey: "scripted", title: c % 17 === 0 ? `zebra ${sentence(2)}` : sentence(3), titleSetByOwner: false, agentConfig: {}, channel: null, now: 1000 });
    const messages = c % 10 === 0 ? 60 : 1 + Math.floor(random() * 8);
    for (let m = 0; m < messages; m++) {
      // Long conversations cross the chunk size, so a word can sit in an older chunk only.
      const words = c % 10 === 0 ? 120 : 4 + Math.floor(random() * 20);
      const status = m % 13 === 5 ? "failed" : "complete";
      const msgId = `${id}-m${m}`;
      messageStore.insertMessage({ id: msgId, conversationId: id, role: m % 2 ? "assistant" : "user", content: [{ type: "text", text: sentence(words) }], status: "streaming", modelId: null, clientId: null, now: 1000 });
      messageStore.finalizeMessage(msgId, { content: [{ type: "text", text: sentence(words) }], status, modelId: null, promptTokens: null, completionTokens: null, stopReason: null, error: null });
    }
    // Ties on updated_at (every fifth shares one) are broken by id, as the list does.
    store.touchConversation(id, c % 5 === 0 ? 5000 : 2000 + c);
    if (c % 11 === 0) store.setArchived(id, 9000);
    if (c % 23 === 0) store.renameConversation(id, `renamed ${sentence(2)}`, true, 2000 + c);
  }
  store.deleteConversation("conv0007");
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The planner's predecessor, kept in SearchIndex.match: one SQL statement per page. */
function reference(q: string, page: SearchPage): string[] {
  const m = index.match(q);
  if (!m) return [];
  const where = [page.archived ? "archived_at IS NOT NULL" : "archived_at IS NULL", m.sql];
  if (page.after) where.push("(updated_at, id) < (@updatedAt, @id)");
  const sql = `SELECT id FROM conversations WHERE ${where.join(" AND ")} ORDER BY updated_at DESC, id DESC LIMIT @limit`;
  return (db.prepare(sql).all({ ...m.params, ...page.after, limit: page.limit }) as { id: string }[]).map((r) => r.id);
}

/** Every page of a search, as the API pages it (the cursor is the last row's key). */
function pages(run: (page: SearchPage) => { id: string; updated_at: number }[] | string[], archived: boolean, limit: number): string[][] {
  const out: string[][] = [];
  let after: SearchPage["after"];
  for (;;) {
    const rows = run({ archived, limit, after });
    const ids = rows.map((r) => (typeof r === "string" ? r : r.id));
    out.push(ids);
    if (ids.length < limit) return out;
    const last = ids[ids.length - 1]!;
    const updatedAt = (db.prepare("SELECT updated_at FROM conversations WHERE id = ?").get(last) as { updated_at: number }).updated_at;
    after = { updatedAt, id: last };
  }
}

const QUERIES = [
  "the", "of", "find", "FIND", "fin", "f", "t", "th", "the find", "find that deploy", "that of the", "deploy", "deploy2",
  "refind", "cafe", "café", "unicode", "naive", "日本", "日本語", "deployer", "quokkaphant", "zebra", "zebra the", "kubernetes rollback",
  "x", "x_find", "v8", "angstrom", "theory the", "nothingmatches", "the nothingmatches", "renamed", "renamed the",
];

describe("search plans", () => {
  acceptance("016-speed-footprint", "search answers alike under every plan: same conversations, same order, same pages", () => {
    const planners: [string, ConversationSearch, SearchPlan][] = [
      ["walk", new ConversationSearch(db, index, COLS), "walk"],
      ["sets", new ConversationSearch(db, index, COLS), "sets"],
      ["auto", new ConversationSearch(db, index, COLS), "auto"],
      // Tiny thresholds: every word is "frequent" and walks hand over to sets early.
      ["auto, handing over", new ConversationSearch(db, index, COLS, { setsBelow: 0, walkSample: 3, walkMinHitRate: 0.9 }), "auto"],
      ["auto, mixed", new ConversationSearch(db, index, COLS, { setsBelow: 0.3, walkSample: 5, walkMinHitRate: 0.4 }), "auto"],
    ];
    let nonEmpty = 0;
    for (const q of QUERIES) {
      const words = toFtsWords(q)!;
      for (const archived of [false, true]) {
        for (const limit of archived ? [7] : [7, 50]) {
          const expected = pages((p) => reference(q, p), archived, limit);
          if (expected.flat().length) nonEmpty += 1;
          for (const [name, planner, plan] of planners) {
            const got = pages((p) => planner.find(words, p, plan) as ConversationRow[], archived, limit);
            expect(got, `${name}: "${q}" archived=${archived} limit=${limit}`).toEqual(expected);
          }
        }
      }
    }
    // The corpus exercises the cases: most queries match something, several span pages.
    expect(nonEmpty).toBeGreaterThan(QUERIES.length * 2);
    expect(pages((p) => reference("the", p), false, 7).length).toBeGreaterThan(10);
  }, 60_000); // ~700 full paginations, each plan against the reference: seconds, more on a busy machine

  test("the store answers through the planner exactly as the reference plan does", () => {
    for (const q of QUERIES) {
      for (const plan of ["auto", "walk", "sets"] as const) {
        store.searchPlan = plan;
        const got = pages((p) => store.listConversations({ ...p, q }).map((c) => ({ id: c.id, updated_at: c.updatedAt })), false, 9);
        expect(got, `${plan}: "${q}"`).toEqual(pages((p) => reference(q, p), false, 9));
      }
    }
    store.searchPlan = "auto";
  }, 60_000);
});

describe("search snippets", () => {
  const matchOf = (q: string, id: string) => {
    const conv = store.getConversation(id)!;
    return store.searchMatch(conv, q);
  };
  const marked = (m: { snippet: string; highlights: [number, number][] }) => m.highlights.map(([s, e]) => m.snippet.slice(s, e));

  test("a message match names the newest finished message holding the word, with the word highlighted", () => {
    const now = 10_000;
    store.insertConversation({ id: "snip1", agentKey: "scripted", title: "snippets", titleSetByOwner: true, agentConfig: {}, channel: null, now });
    const say = (id: string, text: string, status: "complete" | "streaming" = "complete") =>
      messageStore.insertMessage({ id, conversationId: "snip1", role: "user", content: [{ type: "text", text }], status, modelId: null, clientId: null, now });
    say("s-old", "An older note about the Walrus migration.");
    for (let i = 0; i < 60; i++) say(`s-fill${i}`, `filler ${"lorem ipsum ".repeat(40)}`);
    say("s-new", `First line.\nThen a "quoted" walrus sighting in the harbour, and ${"more words ".repeat(30)}at the end.`);
    say("s-live", "a streaming walrus is not indexed yet", "streaming");
    store.listConversations({ archived: false, q: "walrus", limit: 50 });
    const m = matchOf("walrus", "snip1");
    expect(m.message_id).toBe("s-new");
    expect(m.snippet).toContain('quoted" walrus sighting');
    expect(m.snippet).not.toContain("First line"); // one line of the message, not the chunk
    expect(m.snippet.length).toBeLessThanOrEqual(162);
    expect(marked(m)).toEqual(["walrus"]);
    // In an older chunk only: still found, still the right message.
    const older = matchOf("migra", "snip1");
    expect(older.message_id).toBe("s-old");
    expect(marked(older)).toEqual(["migration"]);
    // Every query word in the window is marked; folding as FTS does (case, diacritics).
    say("s-cafe", "Le Café du Port opens at nine");
    store.listConversations({ archived: false, q: "cafe port", limit: 50 });
    const cafe = matchOf("cafe port", "snip1");
    expect(cafe.message_id).toBe("s-cafe");
    expect(marked(cafe)).toEqual(["Café", "Port"]);
  });

  test("the message is read from where each text starts in its chunk, after non-ASCII text too", () => {
    store.insertConversation({ id: "snip3", agentKey: "scripted", title: "starts", titleSetByOwner: true, agentConfig: {}, channel: null, now: 10_002 });
    const say = (id: string, text: string) =>
      messageStore.insertMessage({ id, conversationId: "snip3", role: "user", content: [{ type: "text", text }], status: "complete", modelId: null, clientId: null, now: 10_002 });
    say("s3-a", "Ünïcode naïve déjà vu 🦭 and a narwhal");
    say("s3-b", "a narwhal again, then 日本語");
    say("s3-c", "narwhal pods, three");
    for (let i = 0; i < 5; i++) say(`s3-fill${i}`, "filler words only");
    const at = (q: string) => {
      store.listConversations({ archived: false, q, limit: 50 });
      return matchOf(q, "snip3");
    };
    expect(at("narwhal").message_id).toBe("s3-c"); // the newest of three in one chunk
    expect(at("naive").message_id).toBe("s3-a");
    expect(at("again").message_id).toBe("s3-b"); // after 4-byte and 2-byte characters
    const rows = db.prepare("SELECT s.offset, s.seq FROM text_search_starts s JOIN text_search_chunks k ON k.chunk = s.chunk JOIN conversations c ON c.rowid = k.conv WHERE c.id = 'snip3' ORDER BY s.offset").all();
    expect(rows.slice(0, 3)).toEqual([
      { offset: 0, seq: 0 },
      { offset: Buffer.byteLength("Ünïcode naïve déjà vu 🦭 and a narwhal") + 1, seq: 1 },
      { offset: Buffer.byteLength("Ünïcode naïve déjà vu 🦭 and a narwhal\na narwhal again, then 日本語") + 1, seq: 2 },
    ]);
    // A deleted message is no match for its text any more.
    messageStore.deleteMessage("s3-b");
    expect(at("again").message_id).toBeNull();
  });

  test("every snippet's message holds the snippet, with recorded starts and by the scan of older chunks alike", () => {
    const check = () => {
      for (const q of ["the", "find", "deploy", "café", "rollback the", "日本語", "ångström", "theory"]) {
        for (const conv of store.listConversations({ archived: false, q, limit: 30 })) {
          const m = store.searchMatch(conv, q);
          if (m.message_id === null) continue;
          const text = (messageStore.getMessage(m.message_id)!.content as { type: string; text?: string }[])
            .map((b) => b.text ?? "")
            .join(" ")
            .replace(/\s+/g, " ");
          expect(text, `"${q}" in ${conv.id}`).toContain(m.snippet.replace(/^…|…$/g, "").trim());
        }
      }
    };
    check();
    const saved = db.prepare("SELECT * FROM text_search_starts").all();
    db.prepare("DELETE FROM text_search_starts").run(); // chunks as written before migration 0012
    try {
      check();
    } finally {
      const put = db.prepare("INSERT INTO text_search_starts (chunk, offset, seq) VALUES (@chunk, @offset, @seq)");
      for (const r of saved) put.run(r);
    }
  });

  test("a snippet made after the chunk grew is cut from its new text, not from the text the search read", () => {
    store.insertConversation({ id: "snip4", agentKey: "scripted", title: "growing", titleSetByOwner: true, agentConfig: {}, channel: null, now: 10_003 });
    const say = (id: string, text: string) =>
      messageStore.insertMessage({ id, conversationId: "snip4", role: "user", content: [{ type: "text", text }], status: "complete", modelId: null, clientId: null, now: 10_003 });
    say("s4-a", "the ocelot naps");
    for (let i = 0; i < 5; i++) say(`s4-fill${i}`, "filler words only");
    store.searchPlan = "walk"; // the walk's probe reads the chunk (and keeps its text for the snippet)
    try {
      store.listConversations({ archived: false, q: "ocelot", limit: 50 });
      say("s4-b", "an ocelot climbs");
      for (let i = 5; i < 10; i++) say(`s4-fill${i}`, "filler words only"); // past the newest messages read first
      const m = matchOf("ocelot", "snip4");
      expect(m.message_id).toBe("s4-b");
      expect(m.snippet).toContain("an ocelot climbs");
    } finally {
      store.searchPlan = "auto";
    }
  });

  test("a title-only match has no message and highlights the title", () => {
    store.insertConversation({ id: "snip2", agentKey: "scripted", title: "Platypus plans for Q3", titleSetByOwner: true, agentConfig: {}, channel: null, now: 10_001 });
    messageStore.insertMessage({ id: "s2-1", conversationId: "snip2", role: "user", content: [{ type: "text", text: "nothing relevant here" }], status: "complete", modelId: null, clientId: null, now: 10_001 });
    const [hit] = store.listConversations({ archived: false, q: "platyp", limit: 50 });
    expect(hit!.id).toBe("snip2");
    const m = matchOf("platyp", "snip2");
    expect(m).toEqual({ message_id: null, snippet: "Platypus plans for Q3", highlights: [[0, 8]] });
  });
});
