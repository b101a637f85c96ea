/**
 * bench/vault — 10,000 memory facts and 10,000 knowledge chunks: recall and knowledge search.
 *
 * Seeds a temp data dir through the daemon's migrations and repositories, starts the real
 * daemon on 127.0.0.1:0 (in this process), and measures p50/p95 of coffer__recall and
 * coffer__search_knowledge called by a real MCP client at /mcp — the way the agents call
 * them — next to the same queries over REST, through the tool registry's use case, and the
 * floor: the FTS5 query alone on better-sqlite3. Bar: p50 ≤ 20 ms through the gateway.
 *
 * Run: npm run bench:vault   (env VAULT_RUNS=300, VAULT_KEEP=1 keeps the dir)
 */
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { z } from "zod";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { resolveDaemonConfig, startDaemon } from "../../packages/daemon/src/main.js";
import { consoleLogger } from "../../packages/daemon/src/infrastructure/system/console-logger.js";
import { vaultFtsQuery } from "../../packages/daemon/src/infrastructure/sqlite/search/vault-fts-query.js";
import { KeepAliveClient } from "../support/http-get.js";
import { ms, ratio, summarize, table, timeRuns, verdict, type Summary } from "../support/stats.js";
import { CHUNKS_PER_DOCUMENT, DOCUMENTS, FACTS, seed } from "./seed.js";

const RUNS = Number(process.env.VAULT_RUNS ?? 300);
const BAR_P50_MS = 20;

async function main(): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), "coffer-bench-vault-"));
  console.log(`bench/vault  (data dir ${home}, ${RUNS} timed runs per case)`);
  console.log(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(" ")} on ${cpus().length} cores`);
  const { corpus, seconds } = seed(join(home, "coffer.db"));
  console.log(`seeded ${FACTS} facts and ${DOCUMENTS * CHUNKS_PER_DOCUMENT} chunks (${DOCUMENTS} documents) in ${seconds.toFixed(1)} s`);

  // Queries: 2–4 words drawn from the corpus's own distribution (some common, some rare).
  const queries = Array.from({ length: 50 }, () => corpus.sentence(2 + corpus.int(3)));
  const query = (i: number) => queries[i % queries.length]!;

  const floor = measureFloor(join(home, "coffer.db"), query);

  const daemon = await startDaemon({
    ...resolveDaemonConfig({}, { port: 0, home }),
    logger: consoleLogger("silent"),
    webRoot: null,
    extraBuiltinTools: (registry) =>
      registry.register({ name: "bench_echo", description: "bench only", input: z.object({}), readOnly: true, run: async () => ({ ok: true, value: {} }) }),
  });
  const rest = new KeepAliveClient(daemon.url, { authorization: `Bearer ${daemon.token}` });
  const client = new Client({ name: "bench-vault", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${daemon.token}` } } }),
  );

  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
    return JSON.parse((r.content as { text: string }[])[0]!.text) as { hits?: unknown[] };
  };
  const get = async (path: string) => {
    const r = await rest.get(path);
    if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
  };

  const sample = await call("coffer__recall", { query: query(0) });
  const kbSample = await call("coffer__search_knowledge", { query: query(0) });
  console.log(`sample: recall "${query(0)}" → ${sample.hits?.length} hits; search_knowledge → ${kbSample.hits?.length} hits`);

  const results: Record<string, Summary> = {
    // The gateway's own cost: a bench-only builtin tool that answers {} at once.
    "echo via /mcp (gateway floor)": summarize(await timeRuns(RUNS, 30, () => call("coffer__bench_echo", {}))),
    "recall via /mcp": summarize(await timeRuns(RUNS, 30, (i) => call("coffer__recall", { query: query(i), top_k: 5 }))),
    "recall via REST": summarize(await timeRuns(RUNS, 30, (i) => get(`/api/v1/memory/search?q=${encodeURIComponent(query(i))}&top_k=5`))),
    "search_knowledge via /mcp": summarize(await timeRuns(RUNS, 30, (i) => call("coffer__search_knowledge", { query: query(i), top_k: 5 }))),
    "knowledge search via REST": summarize(await timeRuns(RUNS, 30, (i) => get(`/api/v1/knowledge/search?q=${encodeURIComponent(query(i))}&top_k=5`))),
  };
  await client.close();
  rest.close();
  await daemon.close();

  const floorOf = (name: string) => (name.startsWith("recall") ? floor.recall : name.startsWith("echo") ? null : floor.knowledge);
  console.log("");
  console.log(
    table([
      ["case", "p50", "p95", "p99", "floor p50 (raw FTS5)", "ratio"],
      ["floor: memory FTS5 query", ms(floor.recall.p50), ms(floor.recall.p95), ms(floor.recall.p99), "", ""],
      ["floor: knowledge FTS5 query", ms(floor.knowledge.p50), ms(floor.knowledge.p95), ms(floor.knowledge.p99), "", ""],
      ...Object.entries(results).map(([name, s]) => {
        const f = floorOf(name);
        return [name, ms(s.p50), ms(s.p95), ms(s.p99), f ? ms(f.p50) : "", f ? ratio(s.p50, f.p50) : ""];
      }),
    ]),
  );
  const gateway = [results["recall via /mcp"]!, results["search_knowledge via /mcp"]!];
  const ok = gateway.every((s) => s.p50 <= BAR_P50_MS);
  console.log(`\nbar: recall and search p50 ≤ ${BAR_P50_MS} ms through the gateway → ${verdict(ok)}`);
  if (!process.env.VAULT_KEEP) await rm(home, { recursive: true, force: true });
  process.exitCode = ok ? 0 : 1;
}

/** The same FTS5 statements the stores run, straight on better-sqlite3: the floor. */
function measureFloor(file: string, query: (i: number) => string) {
  const db = new Database(file, { readonly: true });
  const recall = db.prepare(
    `SELECT f.id, f.text, memory_search.rank AS rank FROM memory_search JOIN memory_facts f ON f.pk = memory_search.rowid
     WHERE memory_search MATCH ? AND f.scope = 'global' ORDER BY memory_search.rank LIMIT 5`,
  );
  const knowledge = db.prepare(
    `SELECT c.pk, c.text, knowledge_search.rank AS rank, snippet(knowledge_search, 0, '[', ']', '…', 24) AS s
     FROM knowledge_search JOIN knowledge_chunks c ON c.pk = knowledge_search.rowid WHERE knowledge_search MATCH ? ORDER BY knowledge_search.rank LIMIT 5`,
  );
  const run = (stmt: Database.Statement, i: number) => {
    const all = stmt.all(vaultFtsQuery(query(i), "all"));
    if (!all.length) stmt.all(vaultFtsQuery(query(i), "any"));
  };
  const out = {
    recall: summarize(syncRuns((i) => run(recall, i))),
    knowledge: summarize(syncRuns((i) => run(knowledge, i))),
  };
  db.close();
  return out;
}

function syncRuns(fn: (i: number) => void): number[] {
  for (let i = 0; i < 30; i++) fn(i);
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    fn(i);
    out.push(performance.now() - t0);
  }
  return out;
}

await main();
