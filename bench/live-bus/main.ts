/**
 * bench/live-bus — fan-out of one conversation's live bus to SSE subscribers in another
 * process, against the real daemon (scripted agent) and, in the same run, a bare
 * node:http SSE server pushing the same frames to the same subscriber process.
 *   (a) paced: 1,000 text_delta/s for 8 s → 100 subscribers: lost, reordered, p50/p99 emit→receive
 *   (b) unpaced: 20,000 deltas as fast as the agent yields → deliveries per second
 *   (c) POST → turn_start at a subscriber, p50
 *   (d) DB content writes per turn vs 500 ms flush windows (audit chat_turn_completed.content_flushes)
 *   (e) in process: what scrubbing costs one delta at the turn's entry, with LIVE_CREDENTIALS known
 *
 * The daemon holds LIVE_CREDENTIALS stored credentials (default 3), so every delta goes through
 * the secret scrubber as it would for an owner with keys stored; 0 measures the idle scrubber.
 *
 * Run: npm run build && npm run bench:live-bus   (env LIVE_SUBSCRIBERS, LIVE_SENDS, LIVE_CREDENTIALS)
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { spawnDaemon } from "../../packages/daemon/test/support/spawn-daemon.js";
import { SecretScrubber } from "../../packages/daemon/src/application/secrets/secret-scrubber.js";
import { AgentOutputScrubber } from "../../packages/daemon/src/application/secrets/agent-output-scrubber.js";
import { jsonLine, spawnUntil, within, type Child } from "../support/child.js";
import { KeepAliveClient } from "../support/http-get.js";
import { ms, ratio, summarize, table, verdict } from "../support/stats.js";

const SUBSCRIBERS_ENTRY = fileURLToPath(new URL("./subscribers.ts", import.meta.url));
const BARE_ENTRY = fileURLToPath(new URL("./bare-sse-server.ts", import.meta.url));
const SUBSCRIBERS = Number(process.env.LIVE_SUBSCRIBERS ?? 100);
const SENDS = Number(process.env.LIVE_SENDS ?? 50);
const CREDENTIALS = Number(process.env.LIVE_CREDENTIALS ?? 3);
const PACED = { count: 8_000, perSecond: 1_000 };
const UNPACED = 20_000;
const FLUSH_WINDOW_MS = 500;
const wallClockMs = () => performance.timeOrigin + performance.now();

interface TurnReport {
  subscribers: number;
  disconnected: number;
  received: number;
  lost: number;
  reordered: number;
  idGaps: number;
  p50: number;
  p99: number;
  max: number;
  deltaSpanMs: number;
  turnStartAt: number;
  turnDoneAt: number;
}

/** A stream to watch and a way to start a small turn on it. */
interface SendTarget {
  readonly eventsUrl: string;
  send(): Promise<void>;
}

/** How one side (daemon or bare server) is driven. */
interface Target {
  readonly eventsUrl: string;
  readonly headers: Record<string, string>;
  run(count: number, perSecond: number | null): Promise<void>;
  /** (c) on a conversation with no history. */
  readonly fresh: SendTarget;
  /** (c) again on the conversation that just streamed (a) and (b): does history cost at turn start? */
  readonly afterHistory?: SendTarget;
}

interface SideResult {
  readonly paced: TurnReport;
  readonly unpaced: TurnReport;
  readonly sendToStart: number[];
  readonly sendToStartAfterHistory: number[];
}

function subscribers(url: string, headers: Record<string, string>, count: number): Promise<Child<number>> {
  const opts = JSON.stringify({ url, headers, count });
  return spawnUntil(process.execPath, ["--import", "tsx", SUBSCRIBERS_ENTRY, opts], {}, jsonLine<number>("ready"));
}

async function sendToTurnStart(target: SendTarget, headers: Record<string, string>, sends: number): Promise<number[]> {
  const one = await within(30_000, subscribers(target.eventsUrl, headers, 1), "send subscriber connecting");
  const out: number[] = [];
  for (let i = 0; i < sends + 5; i++) {
    const t0 = wallClockMs();
    await target.send();
    const { at } = await within(10_000, one.nextLine(jsonLine<{ at: number }>("turnStart")), "turn_start");
    await within(10_000, one.nextLine(jsonLine<TurnReport>("turn")), "turn end");
    if (i >= 5) out.push(at - t0);
  }
  await one.stop();
  return out;
}

async function measure(target: Target): Promise<SideResult> {
  const many = await within(30_000, subscribers(target.eventsUrl, target.headers, SUBSCRIBERS), "subscribers connecting");
  await target.run(PACED.count, PACED.perSecond);
  const paced = await within(60_000, many.nextLine(jsonLine<TurnReport>("turn")), "paced turn");
  await target.run(UNPACED, null);
  const unpaced = await within(120_000, many.nextLine(jsonLine<TurnReport>("turn")), "unpaced turn");
  await many.stop();
  const sendToStart = await sendToTurnStart(target.fresh, target.headers, SENDS);
  const sendToStartAfterHistory = target.afterHistory ? await sendToTurnStart(target.afterHistory, target.headers, 10) : [];
  return { paced, unpaced, sendToStart, sendToStartAfterHistory };
}

async function daemonSide(home: string) {
  const d = await spawnDaemon(home);
  const api = new KeepAliveClient(`${d.url}/api/v1`, { authorization: `Bearer ${d.token}` });
  for (let i = 0; i < CREDENTIALS; i++) {
    const stored = await api.request("PUT", `/credentials/bench-${i}`, JSON.stringify({ secret: `sk-bench-${randomBytes(20).toString("hex")}` }));
    if (stored.status !== 200) throw new Error(`credential answered ${stored.status}: ${stored.body}`);
  }
  const conversation = async () => {
    const created = await api.post("/chat/conversations", { agent_key: "scripted" });
    if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.body}`);
    return (JSON.parse(created.body.toString("utf8")) as { id: string }).id;
  };
  const sendScript = async (id: string, steps: unknown[]) => {
    const res = await api.post(`/chat/conversations/${id}/messages`, { text: JSON.stringify({ script: steps }) });
    if (res.status !== 202) throw new Error(`send answered ${res.status}: ${res.body}`);
  };
  const sendTarget = (id: string): SendTarget => ({
    eventsUrl: `${d.url}/api/v1/chat/conversations/${id}/events`,
    send: () => sendScript(id, [{ text: "ok" }]),
  });
  const busy = await conversation();
  const fresh = await conversation();
  const result = await measure({
    eventsUrl: `${d.url}/api/v1/chat/conversations/${busy}/events`,
    headers: { authorization: `Bearer ${d.token}` },
    run: (count, perSecond) => sendScript(busy, [perSecond ? { clock: count, perSecond } : { clock: count }]),
    fresh: sendTarget(fresh),
    afterHistory: sendTarget(busy),
  });
  api.close();
  d.child.kill("SIGTERM");
  await d.exited;
  return { result, writes: contentWrites(join(home, "coffer.db")) };
}

async function bareSide() {
  const bare = await spawnUntil(process.execPath, ["--import", "tsx", BARE_ENTRY], {}, jsonLine<number>("port"));
  const base = `http://127.0.0.1:${bare.ready}`;
  const client = new KeepAliveClient(base);
  const post = async (path: string) => {
    const res = await client.request("POST", path, "");
    if (res.status !== 202) throw new Error(`bare ${path} answered ${res.status}`);
  };
  const result = await measure({
    eventsUrl: `${base}/events`,
    headers: {},
    run: (count, perSecond) => post(`/run?n=${count}&perSecond=${perSecond ?? 0}`),
    fresh: { eventsUrl: `${base}/events`, send: () => post("/send") },
  });
  client.close();
  await bare.stop();
  return result;
}

interface TurnWrites {
  readonly completionTokens: number;
  readonly flushes: number;
  readonly durationMs: number;
}

/** Content writes per turn, from the audit row the engine writes when a turn completes. */
function contentWrites(dbFile: string): TurnWrites[] {
  const db = new Database(dbFile, { readonly: true });
  const rows = db
    .prepare(
      `SELECT a.details, m.created_at AS started, a.at AS ended FROM audit_log a
       JOIN messages m ON m.id = (SELECT id FROM messages WHERE conversation_id = json_extract(a.details, '$.conversation_id')
         AND role = 'assistant' AND created_at <= a.at ORDER BY seq DESC LIMIT 1)
       WHERE a.action = 'chat_turn_completed' ORDER BY a.id`,
    )
    .all() as { details: string; started: number; ended: number }[];
  db.close();
  return rows.map((r) => {
    const d = JSON.parse(r.details) as { content_flushes: number; completion_tokens: number };
    return { completionTokens: d.completion_tokens, flushes: d.content_flushes, durationMs: r.ended - r.started };
  });
}

function perSecond(t: TurnReport, count: number): number {
  return (count * (t.subscribers - t.disconnected)) / (t.deltaSpanMs / 1000);
}

/** (e): the bench's own clock deltas through the turn-entry scrubber, 5 rounds of UNPACED; the best round's ns per delta. */
function scrubCostPerDelta(): { withSecrets: number; idle: number } {
  const deltas = Array.from({ length: UNPACED }, (_, i) => `${i}@${wallClockMs().toFixed(3)}\n`);
  const round = (scrubber: SecretScrubber) => {
    let best = Infinity;
    for (let r = 0; r < 5; r++) {
      const output = new AgentOutputScrubber(scrubber);
      let chars = 0;
      const t0 = performance.now();
      for (const d of deltas) chars += output.text(d).length;
      best = Math.min(best, performance.now() - t0);
      if (chars === 0) throw new Error("nothing emitted");
    }
    return (best * 1e6) / deltas.length;
  };
  const known = new SecretScrubber();
  for (let i = 0; i < Math.max(1, CREDENTIALS); i++) known.learn(`bench-${i}`, `sk-bench-${randomBytes(20).toString("hex")}`);
  return { withSecrets: round(known), idle: round(new SecretScrubber()) };
}

async function main(): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), "coffer-bench-live-"));
  console.log(`bench/live-bus  (${SUBSCRIBERS} subscribers in another process; ${SENDS} sends for send→turn_start; ${CREDENTIALS} credentials stored, so the scrubber is ${CREDENTIALS ? "active" : "idle"})`);
  console.log(`load average at start: ${loadavg().map((l) => l.toFixed(2)).join(" ")} on ${cpus().length} cores`);
  const ours = await daemonSide(home);
  const bare = await bareSide();
  await rm(home, { recursive: true, force: true });

  const o = ours.result;
  const b = bare;
  const lossOk = o.paced.lost === 0 && o.paced.reordered === 0 && o.paced.idGaps === 0 && o.paced.disconnected === 0;
  const p99Ok = o.paced.p99 <= 2 * b.paced.p99;
  const oursRate = perSecond(o.unpaced, UNPACED);
  const bareRate = perSecond(b.unpaced, UNPACED);
  const rateOk = oursRate >= 0.5 * bareRate;
  const send = summarize(o.sendToStart);
  const bareSend = summarize(b.sendToStart);
  const sendOk = send.p50 <= 10;
  const afterHistory = summarize(o.sendToStartAfterHistory);
  const big = ours.writes.filter((w) => w.completionTokens >= PACED.count);
  const writesOk = big.length === 2 && big.every((w) => w.flushes <= Math.ceil(w.durationMs / FLUSH_WINDOW_MS));

  const lossText = (t: TurnReport) =>
    `${t.lost} lost / ${t.reordered} reordered / ${t.idGaps} id gaps / ${t.disconnected} cut (${t.received} received)`;
  console.log(
    `\n${table([
      ["measure", "daemon", "bare node:http", "daemon÷bare", "bar", "verdict"],
      ["(a) paced 1,000/s × 8 s: delivery", lossText(o.paced), lossText(b.paced), "", "0 lost/reordered", verdict(lossOk)],
      ["(a) paced emit→receive p50", ms(o.paced.p50), ms(b.paced.p50), ratio(o.paced.p50, b.paced.p50), "", ""],
      ["(a) paced emit→receive p99", ms(o.paced.p99), ms(b.paced.p99), ratio(o.paced.p99, b.paced.p99), "≤ 2× bare", verdict(p99Ok)],
      ["(a) paced emit→receive max", ms(o.paced.max), ms(b.paced.max), ratio(o.paced.max, b.paced.max), "", ""],
      ["(b) unpaced 20,000: deliveries/s", oursRate.toFixed(0), bareRate.toFixed(0), `${((100 * oursRate) / bareRate).toFixed(0)}%`, "≥ 50% of bare", verdict(rateOk)],
      ["(b) unpaced: delivery", lossText(o.unpaced), lossText(b.unpaced), "", "", ""],
      ["(b) unpaced emit→receive p50 / p99", `${ms(o.unpaced.p50)} / ${ms(o.unpaced.p99)}`, `${ms(b.unpaced.p50)} / ${ms(b.unpaced.p99)}`, "", "", ""],
      ["(c) POST → turn_start p50 / p95", `${ms(send.p50)} / ${ms(send.p95)}`, `${ms(bareSend.p50)} / ${ms(bareSend.p95)}`, ratio(send.p50, bareSend.p50), "p50 ≤ 10 ms", verdict(sendOk)],
      ["(c') same, conversation after (a)+(b)", `${ms(afterHistory.p50)} / ${ms(afterHistory.p95)}`, "", ratio(afterHistory.p50, bareSend.p50), "(not a bar)", ""],
    ])}`,
  );
  console.log("\n(d) DB content writes per turn (audit chat_turn_completed.content_flushes; plus 1 commit at start, 1 finalize):");
  for (const w of big) {
    const windows = Math.ceil(w.durationMs / FLUSH_WINDOW_MS);
    console.log(`    ${w.completionTokens} deltas in ${w.durationMs} ms → ${w.flushes} content writes for ${windows} windows of ${FLUSH_WINDOW_MS} ms`);
  }
  const small = ours.writes.filter((w) => w.completionTokens < PACED.count);
  if (small.length) console.log(`    ${small.length} one-delta turns: content writes ${[...new Set(small.map((w) => w.flushes))].join("/")} each`);
  console.log(`    [bar ≤ 1 write per window: ${verdict(writesOk)}]`);
  const cost = scrubCostPerDelta();
  console.log(
    `\n(e) scrubbing at the turn's entry, in process: ${cost.withSecrets.toFixed(0)} ns per delta with ${Math.max(1, CREDENTIALS)} credential(s) known, ${cost.idle.toFixed(0)} ns idle (best of 5 × ${UNPACED} deltas)`,
  );
  process.exitCode = lossOk && p99Ok && rateOk && sendOk && writesOk ? 0 : 1;
}

await main();
