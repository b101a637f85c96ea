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
 * which flatters it). Bar (issue 5): warm ≥ 3× faster than a process per turn.
 *
 * The shared runner (main.ts) has Codex's cold, warm and peer figures; run this file alone for
 * the full table: npm run bench:agent-turns:codex   (env CODEX_BENCH_RUNS=10)
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { consoleLogger } from "../../packages/daemon/src/infrastructure/system/console-logger.js";
import { resolveDaemonConfig, startDaemon, type RunningDaemon } from "../../packages/daemon/src/main.js";
import { makeCodexSandbox, type CodexSandbox } from "../../packages/daemon/test/fakes/codex-home.js";
import { FakeOpenAiResponses } from "../../packages/daemon/test/fakes/fake-openai-responses.js";
import { ApiClient } from "../../packages/daemon/test/support/http-client.js";
import { processPerTurnStart } from "./codex-process-per-turn.js";
import { median, timeFirstDelta, type BenchDaemon } from "./turn-timing.js";

const BAR = 3;

interface CodexBenchDaemon extends BenchDaemon {
  newConversation(): Promise<string>;
  close(): Promise<void>;
}

/** A real daemon on a temp data dir whose `codex` is the real binary aimed at the fake. */
async function startCodexDaemon(sandbox: CodexSandbox): Promise<CodexBenchDaemon> {
  const home = await mkdtemp(join(tmpdir(), "coffer-bench-codex-"));
  // The default workspace inside the sandbox (removed with it), never the runner's ~/coffer-workspace.
  const base = resolveDaemonConfig({ COFFER_LOG_LEVEL: "silent" }, { port: 0, home, workspace: join(sandbox.codexHome, "..", "coffer-workspace") });
  const daemon: RunningDaemon = await startDaemon({ ...base, env: sandbox.env, logger: consoleLogger("silent"), webRoot: null });
  const api = new ApiClient(daemon.url, daemon.token);
  return {
    url: daemon.url,
    token: daemon.token,
    api,
    async newConversation() {
      const res = await api.post("/chat/conversations", { agent_key: "codex" });
      if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    },
    async close() {
      await daemon.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** The full Codex table, with the upstream process-per-turn row. */
async function main(runs: number): Promise<void> {
  const fake = await FakeOpenAiResponses.start();
  const sandbox = await makeCodexSandbox(fake.baseUrl);
  const cold: number[] = [];
  const warm: number[] = [];
  const warmNew: number[] = [];
  const warmCrowded: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const d = await startCodexDaemon(sandbox);
      cold.push(await timeFirstDelta(d, await d.newConversation(), `cold ${i}`));
      await d.close();
    }
    const d = await startCodexDaemon(sandbox);
    const live = await d.newConversation();
    await timeFirstDelta(d, live, "warm-up");
    for (let i = 0; i < runs; i++) warm.push(await timeFirstDelta(d, live, `warm ${i}`));
    for (let i = 0; i < runs; i++) warmNew.push(await timeFirstDelta(d, await d.newConversation(), `warm new ${i}`));
    // The same live conversation again, now that other threads are loaded beside it.
    for (let i = 0; i < runs; i++) warmCrowded.push(await timeFirstDelta(d, live, `warm again ${i}`));
    await d.close();
    const perTurn = await processPerTurnStart(sandbox, runs);

    const w = median(warm);
    const rows: [string, number][] = [
      ["cold (first turn, app-server start)", median(cold)],
      ["warm, new conversation (thread/start)", median(warmNew)],
      ["warm (next turn, live thread)", w],
      [`warm, ${runs + 1} threads loaded`, median(warmCrowded)],
      ["upstream: new app-server per turn", median(perTurn)],
    ];
    console.log(`Codex turn start, POST → first text_delta, median of ${runs} (real codex app-server vs a fake model on 127.0.0.1)\n`);
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main(Math.max(10, Number(process.env.CODEX_BENCH_RUNS ?? 10)));
}
