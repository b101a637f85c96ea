import { MemoryService } from "../../packages/daemon/src/application/vault/memory.js";
import { openDatabase } from "../../packages/daemon/src/infrastructure/sqlite/database.js";
import { SqliteKnowledgeStore } from "../../packages/daemon/src/infrastructure/sqlite/stores/sqlite-knowledge-store.js";
import { SqliteMemoryStore } from "../../packages/daemon/src/infrastructure/sqlite/stores/sqlite-memory-store.js";
import { randomIds, systemClock } from "../../packages/daemon/src/infrastructure/system/system-clock.js";
import { Corpus } from "./corpus.js";

export const FACTS = 10_000;
export const DOCUMENTS = 1_000;
export const CHUNKS_PER_DOCUMENT = 10;

/** Seeds a data dir's database through the daemon's own migrations and repositories. */
export function seed(dbFile: string): { corpus: Corpus; seconds: number } {
  const t0 = Date.now();
  const corpus = new Corpus();
  const db = openDatabase(dbFile);
  // The bench measures search, not the audit log: seeding writes no audit rows.
  const memory = new MemoryService({ store: new SqliteMemoryStore(db), clock: systemClock, ids: randomIds, audit: () => {} });
  db.transaction(() => {
    for (let i = 0; i < FACTS; i++) {
      // A quarter of the facts belong to one of 20 projects, the rest are global.
      const project = i % 4 === 0 ? `/home/owner/project-${i % 20}` : undefined;
      memory.remember({ text: corpus.sentence(12 + corpus.int(20)), project }, { actor: "user", details: {}, name: "bench" });
    }
  })();
  const store = new SqliteKnowledgeStore(db);
  store.createBase({ id: "kb-bench", name: "bench", description: "synthetic", now: Date.now() });
  for (let d = 0; d < DOCUMENTS; d++) {
    const chunks = Array.from({ length: CHUNKS_PER_DOCUMENT }, () => corpus.sentence(150 + corpus.int(60)));
    store.putDocument("kb-bench", { id: `doc-${d}`, filename: `notes/doc-${d}.md`, sourcePath: `/bench/doc-${d}.md`, content: chunks.join("\n\n"), chunks, now: Date.now() });
  }
  db.close();
  return { corpus, seconds: (Date.now() - t0) / 1000 };
}
