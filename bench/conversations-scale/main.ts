/**
 * bench/conversations-scale — 10k conversations / 1M messages, read over HTTP.
 *
 * Seeds a temp data dir through the daemon's migrations, then measures (p50/p95) the
 * history list, searches of every kind (rare, common, frequent long, mid, 1-letter prefix,
 * two words, no match; each with its page of snippets) and opening a thread (last 200
 * messages) against the real daemon in its own process, and daemon start-to-healthy.
 * The floor, in the same run and in turn with the daemon (25 runs of each at a time): the same SQL
 * on better-sqlite3, the store in-process, and a bare node:http server answering a JSON body of the
 * same size. The store is timed twice: in a loop, and as a server runs it (each call just after
 * a round trip to the bare server, untimed). The route's own cost (HTTP p50 less the store's as
 * served) is printed as a ratio to that bare floor (issue 23: the heart stays small).
 *
 * Run: npm run build && npm run bench:scale   (env SCALE_RUNS=300, SCALE_STARTS=10, SCALE_KEEP=1 keeps
 * the dir, SCALE_SEEDED=<a kept coffer.db> starts from a copy of it instead of seeding again,
 * SCALE_NO_CREDENTIAL=1 measures without the one stored credential)
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnUntil, jsonLine } from "../support/child.js";
import { KeepAliveClient } from "../support/http-get.js";
import { ms, nowMs, ratio, summarize, table, verdict, type Summary } from "../support/stats.js";
import { COMMON_WORD, FREQUENT_LONG_WORD, RARE_WORD } from "./corpus.js";
import { BAR_P50_MS, pathFor, type BenchQuery } from "./queries.js";
import { reuseSeed, seed } from "./seed.js";
import { sqlFloor } from "./sql-floor.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CLI = join(ROOT, "packages/cli/dist/main.js");
const BARE = fileURLToPath(new URL("./bare-json-server.ts", import.meta.url));
const RUNS = Number(process.env.SCALE_RUNS ?? 300);
const STARTS = Number(process.env.SCALE_STARTS ?? 10);
const START_BAR_MS = 1000;
/**
 * A real install holds at least one provider key, and then every JSON answer passes the
 * secret scrubber; an empty vault would measure an idle scrubber no owner runs
 * (SCALE_NO_CREDENTIAL=1 measures that state).
 */
const KNOWS_A_CREDENTIAL = !process.env.SCALE_NO_CREDENTIAL;

interface Daemon {
  readonly url: string;
  readonly token: string;
  stop(): Promise<number | string>;
}

/**
 * `coffer start --port 0` from the built CLI, as a user runs it; resolves on its "running" line
 * (`--print-url`: the banner carries the token only when asked).
 */
async function startDaemon(home: string): Promise<Daemon & { healthyMs: number }> {
  const t0 = nowMs();
  const c = await spawnUntil(process.execPath, [CLI, "start", "--port", "0", "--print-url"], { COFFER_HOME: home, COFFER_LOG_LEVEL: "warn" }, (line) => {
    const m = /Open (http:\/\/127\.0\.0\.1:\d+)\/\?token=(\S+)/.exec(line);
    return m ? { url: m[1]!, token: m[2]! } : undefined;
  });
  const client = new KeepAliveClient(c.ready.url, { authorization: `Bearer ${c.ready.token}` });
  const health = await client.get("/api/v1/health");
  const healthyMs = nowMs() - t0;
  client.close();
  if (health.status !== 200) throw new Error(`health answered ${health.status}`);
  return { ...c.ready, healthyMs, stop: c.stop };
}

/**
 * What the HTTP route adds over the store's own answer (auth, guards, routing, mapping,
 * serialisation, the socket): the daemon's p50 less the store's in-process p50, never below 0.
 */
function routeCost(httpP50: number, storeP50: number): number {
  return Math.max(0, httpP50 - storeP50);
}

async function storeACredential(client: KeepAliveClient): Promise<void> {
  const res = await client.request("PUT", "/api/v1/credentials/bench.provider", JSON.stringify({ secret: "sk-bench-0123456789abcdef" }));
  if (res.status >= 300) throw new Error(`storing a credential answered ${res.status}: ${res.body.toString("utf8").slice(0, 300)}`);
}

/** Runs timed in a row before the next kind takes its turn. */
const BATCH = 25;
const WARMUP = 30;
type Kind = "raw" | "store" | "served" | "http" | "bare";
const KINDS: readonly Kind[] = ["raw", "store", "served", "http", "bare"];
/** A timed run, and what must happen before it, untimed. */
interface Timed {
  readonly before?: () => Promise<unknown>;
  readonly run: (i: number) => unknown;
}

/**
 * One query's figures taken in turn, BATCH runs of each kind at a time (the order rotating
 * every round) until each has RUNS: raw SQL, the store in-process back to back, the store
 * as a server runs it, the daemon over HTTP and the bare server. Measured one phase after
 * another, a shared machine's load moved between the store's minutes and the daemon's, and
 * the route's cost (their difference) moved with it by a millisecond either way.
 */
async function timeInTurn(runs: Record<Kind, Timed>): Promise<Record<Kind, Summary>> {
  const samples: Record<Kind, number[]> = { raw: [], store: [], served: [], http: [], bare: [] };
  for (const k of KINDS) for (let i = 0; i < WARMUP; i++) await runs[k].run(i);
  for (let round = 0; samples.store.length < RUNS; round++) {
    for (let j = 0; j < KINDS.length; j++) {
      const k = KINDS[(round + j) % KINDS.length]!;
      for (let n = 0; n < BATCH && samples[k].length < RUNS; n++) {
        const i = samples[k].length;
        await runs[k].before?.();
        const t0 = nowMs();
        await runs[k].run(i);
        samples[k].push(nowMs() - t0);
      }
    }
  }
  return Object.fromEntries(KINDS.map((k) => [k, summarize(samples[k])])) as Record<Kind, Summary>;
}

async function getOk(client: KeepAliveClient, path: string): Promise<Buffer> {
  const res = await client.get(path);
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${res.body.toString("utf8").slice(0, 300)}`);
  return res.body;
}

function describe(q: BenchQuery, body: unknown): string {
  const b = body as { conversations?: unknown[]; messages?: unknown[] };
  const size = Buffer.byteLength(JSON.stringify(body));
  const count = b.conversations ? `${b.conversations.length} conversations` : `${b.messages?.length ?? 0} messages`;
  return `${q.name}: ${count}, ${(size / 1024).toFixed(1)} KiB`;
}

async function main(): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), "coffer-bench-scale-"));
  console.log(`bench/conversations-scale  (data dir ${home}, ${RUNS} timed runs per query, ${KNOWS_A_CREDENTIAL ? "one credential stored: the scrubber is active" : "no credential: the scrubber is idle"})`);
  console.log(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(" ")} on ${cpus().length} cores`);
  const seeded = process.env.SCALE_SEEDED ? reuseSeed(process.env.SCALE_SEEDED, join(home, "coffer.db")) : seed(join(home, "coffer.db"));
  console.log(`seeded 10,000 conversations / 1,000,000 messages (${seeded.archived} archived) in ${(seeded.ms / 1000).toFixed(1)} s`);

  const queries: BenchQuery[] = [
    { name: "list first page", kind: "list" },
    { name: `search rare "${RARE_WORD}"`, kind: "search", word: RARE_WORD },
    { name: `search common "${COMMON_WORD}"`, kind: "search", word: COMMON_WORD },
    { name: `search frequent long "${FREQUENT_LONG_WORD}"`, kind: "search", word: FREQUENT_LONG_WORD },
    { name: `search mid "${seeded.midWord}"`, kind: "search", word: seeded.midWord },
    { name: `search 1-letter prefix "d"`, kind: "search", word: "d" },
    { name: `search two words "${COMMON_WORD} ${seeded.midWord}"`, kind: "search", word: `${COMMON_WORD} ${seeded.midWord}` },
    { name: `search no match "zzzzqx"`, kind: "search", word: "zzzzqx" },
    // The page asks for SEARCH_PAGE results; a page of 50 (the history list's size) is shown beside it, without a bar.
    { name: `search common "${COMMON_WORD}", limit 50`, kind: "search", word: COMMON_WORD, limit: 50 },
    { name: `search two words "${COMMON_WORD} ${seeded.midWord}", limit 50`, kind: "search", word: `${COMMON_WORD} ${seeded.midWord}`, limit: 50 },
    { name: "open thread (last 200)", kind: "thread", conversationIds: seeded.longConversationIds.slice(0, 50) },
  ];

  const starts: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const d = await startDaemon(home);
    starts.push(d.healthyMs);
    console.log(`  start ${i + 1}/${STARTS}: ${ms(d.healthyMs)} to healthy`);
    await d.stop();
  }
  const daemon = await startDaemon(home);
  const api = new KeepAliveClient(daemon.url, { authorization: `Bearer ${daemon.token}` });
  if (KNOWS_A_CREDENTIAL) await storeACredential(api);
  const daemonPath = (q: BenchQuery, i: number) => `/api/v1${pathFor(q, i)}`;
  const bodies: Record<string, unknown> = {};
  for (const q of queries) bodies[q.name] = JSON.parse((await getOk(api, daemonPath(q, 0))).toString("utf8"));

  // The bare floor answers each query's path with a body of the daemon's answer's size.
  const bodyFile = join(home, "bare-bodies.json");
  await writeFile(bodyFile, JSON.stringify(Object.fromEntries(queries.map((q, i) => [`/bench/${i}`, bodies[q.name]]))));
  const bare = await spawnUntil(process.execPath, ["--import", "tsx", BARE, bodyFile], {}, jsonLine<number>("port"));
  const bareClient = new KeepAliveClient(`http://127.0.0.1:${bare.ready}`, { authorization: `Bearer ${daemon.token}` });

  const floor = sqlFloor(join(home, "coffer.db"));
  const figures: Record<string, Record<Kind, Summary>> = {};
  const plans: Record<string, string[]> = {};
  for (const [index, q] of queries.entries()) {
    const runners = floor.runners(q);
    plans[q.name] = runners.plan;
    const bareAnswer = () => getOk(bareClient, `/bench/${index}`);
    figures[q.name] = await timeInTurn({
      raw: { run: runners.raw },
      store: { run: runners.store },
      // A server runs the store once a request, just woken by a socket: caches are colder than
      // in a loop (a no-match search: ~65 µs back to back, ~150 µs after a round trip). The
      // route's cost is what HTTP adds to this figure.
      served: { before: bareAnswer, run: runners.store },
      http: { run: (i) => getOk(api, daemonPath(q, i)) },
      bare: { run: bareAnswer },
    });
  }
  floor.close();
  api.close();
  bareClient.close();
  await Promise.all([daemon.stop(), bare.stop()]);

  console.log("\nresponses:", queries.map((q) => describe(q, bodies[q.name])).join("; "));
  const rows: string[][] = [
    ["query", "raw SQL p50 (search: old plan)", "store p50 (loop / served)", "HTTP p50 / p95", "bare HTTP p50 / p95", "HTTP÷bare p50", "route cost (HTTP−served) p50", "route÷bare p50", "HTTP÷SQL p50", "bar p50", "verdict"],
  ];
  let failed = false;
  for (const q of queries) {
    const { raw, store, served, http: h, bare: b } = figures[q.name]!;
    const barred = !(q.kind === "search" && q.limit);
    const ok = h.p50 <= BAR_P50_MS[q.kind];
    failed ||= barred && !ok;
    rows.push([
      q.name,
      ms(raw.p50),
      `${ms(store.p50)} / ${ms(served.p50)}`,
      `${ms(h.p50)} / ${ms(h.p95)}`,
      `${ms(b.p50)} / ${ms(b.p95)}`,
      ratio(h.p50, b.p50),
      ms(routeCost(h.p50, served.p50)),
      ratio(routeCost(h.p50, served.p50), b.p50),
      ratio(h.p50, raw.p50),
      barred ? `≤ ${BAR_P50_MS[q.kind]} ms` : "(none)",
      barred ? verdict(ok) : "-",
    ]);
  }
  console.log(`\n${table(rows)}`);
  const costsOver = (store: "served" | "store") => {
    const r = queries.map((q) => routeCost(figures[q.name]!.http.p50, figures[q.name]![store].p50) / figures[q.name]!.bare.p50);
    return `${Math.min(...r).toFixed(1)}–${Math.max(...r).toFixed(1)}× (median ${summarize(r).p50.toFixed(1)}×)`;
  };
  console.log(
    `\nthe route's own cost ÷ the bare HTTP floor p50, same run: HTTP p50 − the store's p50 as served ${costsOver("served")};` +
      ` HTTP p50 − the store's p50 in a loop ${costsOver("store")}`,
  );
  const start = summarize(starts);
  const startOk = start.max <= START_BAR_MS;
  failed ||= !startOk;
  console.log(
    `\nstart-to-healthy (spawn \`coffer start\` → /health 200, ${STARTS} starts): ${starts.map((s) => ms(s)).join(", ")}\n  p50 ${ms(start.p50)}, max ${ms(start.max)}` +
      `  [bar ≤ ${START_BAR_MS} ms: ${verdict(startOk)}]`,
  );
  console.log("\nquery plans (raw SQL):");
  for (const q of queries) console.log(`  ${q.name}:\n    ${plans[q.name]!.join("\n    ")}`);

  if (process.env.SCALE_KEEP) console.log(`\nkept ${home}`);
  else await rm(home, { recursive: true, force: true });
  process.exitCode = failed ? 1 : 0;
}

await main();
