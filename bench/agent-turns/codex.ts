/**
 * bench/agent-turns/codex — how fast a Codex turn starts on the shared app-server.
 *
 * Time = POST /messages → first `text_delta` at an SSE subscriber, with the REAL `codex`
 * binary against the fake Responses server on 127.0.0.1 (it streams at once, so the figure
 * is Coffer + Codex, not a model):
 *   cold      a fresh daemon's first turn: app-server start + initialize + thread/start
 *   warm new  a new conversation on a running app-server: thread/start only
 *   warm      the next turn of a live conversation: turn/start only
 * and the comparison row, upstream Coffer's way (a new app-server per turn): spawn,
 * initialize, thread/resume, turn/start → first delta, driven directly over stdio (no HTTP,
 * which flatters it). Bar (design.md §7): warm ≥ 3× faster than a process per turn.
 *
 * Run: npm run build && npm run bench:agent-turns:codex   (env CODEX_BENCH_RUNS=10)
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { consoleLogger } from "../../packages/daemon/src/infrastructure/system/console-logger.js";
import { resolveDaemonConfig, startDaemon, type RunningDaemon } from "../../packages/daemon/src/main.js";
import { makeCodexSandbox, type CodexSandbox } from "../../packages/daemon/test/fakes/codex-home.js";
import { FakeOpenAiResponses } from "../../packages/daemon/test/fakes/fake-openai-responses.js";
import { ApiClient, SseSubscription } from "../../packages/daemon/test/support/http-client.js";
import { processPerTurnStart } from "./codex-process-per-turn.js";

const RUNS = Math.max(10, Number(process.env.CODEX_BENCH_RUNS ?? 10));
const BAR = 3;

interface Daemon {
  readonly daemon: RunningDaemon;
  readonly api: ApiClient;
}

async function startBenchDaemon(sandbox: CodexSandbox, home: string): Promise<Daemon> {
  const base = resolveDaemonConfig({ COFFER_LOG_LEVEL: "silent" }, { port: 0, home });
  const daemon = await startDaemon({ ...base, env: sandbox.env, logger: consoleLogger("silent"), webRoot: null });
  return { daemon, api: new ApiClient(daemon.url, daemon.token) };
}

async function newConversation(d: Daemon): Promise<string> {
  const res = await d.api.post("/chat/conversations", { agent_key: "codex" });
  if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** POST → first text_delta, then wait for the turn to end so the next run starts clean. */
async function timeTurn(d: Daemon, id: string, text: string): Promise<number> {
  const sub = await SseSubscription.open(d.daemon.url, d.daemon.token, `/chat/conversations/${id}/events`);
  const from = sub.events.length;
  const t0 = performance.now();
  const ack = await d.api.post(`/chat/conversations/${id}/messages`, { text });
  if (ack.status !== 202) throw new Error(`send failed: ${JSON.stringify(ack.body)}`);
  const first = await sub.waitFor((e) => e.type === "text_delta" || e.type === "turn_error", from);
  const elapsed = performance.now() - t0;
  if (first.event.type === "turn_error") throw new Error(`turn failed: ${JSON.stringify(first.event)}`);
  await sub.waitFor((e) => e.type === "turn_done" || e.type === "turn_error", from);
  sub.close();
  return elapsed;
}

function median(samples: readonly number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

async function main(): Promise<void> {
  const fake = await FakeOpenAiResponses.start();
  const sandbox = await makeCodexSandbox(fake.baseUrl);
  const cold: number[] = [];
  const warmNew: number[] = [];
  const warm: number[] = [];
  const warmCrowded: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const home = await mkdtemp(join(tmpdir(), "coffer-bench-codex-"));
      const d = await startBenchDaemon(sandbox, home);
      cold.push(await timeTurn(d, await newConversation(d), `cold ${i}`));
      await d.daemon.close();
      await rm(home, { recursive: true, force: true });
    }

    const home = await mkdtemp(join(tmpdir(), "coffer-bench-codex-"));
    const d = await startBenchDaemon(sandbox, home);
    const live = await newConversation(d);
    await timeTurn(d, live, "warm-up");
    for (let i = 0; i < RUNS; i++) warm.push(await timeTurn(d, live, `warm ${i}`));
    for (let i = 0; i < RUNS; i++) warmNew.push(await timeTurn(d, await newConversation(d), `warm new ${i}`));
    // The same live conversation again, now that other threads are loaded beside it.
    for (let i = 0; i < RUNS; i++) warmCrowded.push(await timeTurn(d, live, `warm again ${i}`));
    await d.daemon.close();
    await rm(home, { recursive: true, force: true });

    const perTurn = await processPerTurnStart(sandbox, RUNS);
    const rows: [string, number][] = [
      ["cold (first turn, app-server start)", median(cold)],
      ["warm, new conversation (thread/start)", median(warmNew)],
      ["warm (next turn, live thread)", median(warm)],
      [`warm, ${RUNS + 1} threads loaded`, median(warmCrowded)],
      ["upstream: new app-server per turn", median(perTurn)],
    ];
    const w = median(warm);
    console.log(`Codex turn start, POST → first text_delta, median of ${RUNS} (real codex app-server vs a fake model on 127.0.0.1)\n`);
    for (const [name, value] of rows) console.log(`${name.padEnd(40)} ${value.toFixed(1).padStart(8)} ms   ${(value / w).toFixed(1).padStart(5)}× warm`);
    const ratio = median(perTurn) / w;
    console.log(`\nwarm is ${(median(cold) / w).toFixed(1)}× faster than cold, ${ratio.toFixed(1)}× faster than a process per turn`);
    console.log(`bar: warm ≥ ${BAR}× faster than a process per turn — ${ratio >= BAR ? "PASS" : "FAIL"}`);
    if (ratio < BAR) process.exitCode = 1;
  } finally {
    await fake.close();
    await sandbox.remove();
  }
}

await main();
