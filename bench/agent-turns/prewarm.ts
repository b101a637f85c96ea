/**
 * bench/agent-turns/prewarm — the first message of a new conversation, with the REAL `claude`
 * (the Agent SDK's bundled binary) against the fake Anthropic server on 127.0.0.1 (it streams
 * at once, so the figure is Coffer + Claude Code, not a model). POST → first `text_delta`:
 *   cold        a new conversation's first turn, no pre-warm: process start, initialize, init
 *   pre-warmed  the same, after the draft was open for 2 s with a pre-warm call
 *               (POST /chat/agents/claude_code/prewarm, as the page sends on the first keystroke)
 *   warm        the floor: the next turn of a live conversation on its warm process
 * The same for Codex, whose pre-warm starts its one shared app-server and opens a spare thread
 * with the draft's settings, which the first message takes (cold = a fresh daemon).
 * Bar (issue 16): pre-warmed ≤ 2× warm. Also the memory a warm process holds (VmRSS of its
 * process group, from GET /system/stats) for Claude Code and Codex's shared app-server, and
 * the total with 10 conversations used under the default cap (COFFER_MAX_WARM_AGENTS).
 *
 * Run: npm run bench:agent-turns:prewarm   (env AGENT_BENCH_RUNS=10)
 */
import type { SystemStatsOut } from "@coffer/protocol";
import { startAgentHarness, type AgentHarness } from "../../packages/daemon/test/fakes/agent-harness.js";
import { median, timeFirstDelta, type BenchDaemon } from "./turn-timing.js";

const RUNS = Math.max(10, Number(process.env.AGENT_BENCH_RUNS ?? 10));
const BAR = 2;
/** How long the draft stays open between the owner's first keystroke and Send. */
const DRAFT_OPEN_MS = 2000;
const MODEL = { model: "claude-sonnet-4-5" };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

async function stats(d: BenchDaemon): Promise<SystemStatsOut> {
  return (await d.api.get("/system/stats")).body as SystemStatsOut;
}

async function claudeFigures(): Promise<void> {
  const h: AgentHarness<"claude_code"> = await startAgentHarness("claude_code");
  const daemon = (): BenchDaemon => ({ url: h.daemon.daemon.url, token: h.daemon.daemon.token, api: h.daemon.api });
  try {
    const live = await h.conversation(MODEL);
    await timeFirstDelta(daemon(), live, "warm-up");
    const cold: number[] = [];
    const prewarmed: number[] = [];
    const warm: number[] = [];
    // Interleaved, so machine noise hits every column alike.
    for (let run = 0; run < RUNS; run++) {
      cold.push(await timeFirstDelta(daemon(), await h.conversation(MODEL), `cold ${run}`));
      const hint = await h.daemon.api.post("/chat/agents/claude_code/prewarm", MODEL);
      if (hint.body.state !== "started") throw new Error(`pre-warm did not start a process: ${JSON.stringify(hint.body)}`);
      await pause(DRAFT_OPEN_MS); // the owner types
      prewarmed.push(await timeFirstDelta(daemon(), await h.conversation(MODEL), `pre-warmed ${run}`));
      warm.push(await timeFirstDelta(daemon(), live, `warm ${run}`));
    }
    const [c, p, w] = [median(cold), median(prewarmed), median(warm)];
    console.log(`Claude Code first text, POST → first text_delta, median of ${RUNS} (real claude vs the fake model server)\n`);
    console.log(`${"turn".padEnd(12)} ${"median".padStart(10)} ${"÷ warm".padStart(8)}`);
    console.log(`${"cold".padEnd(12)} ${`${c.toFixed(0)} ms`.padStart(10)} ${`${(c / w).toFixed(1)}×`.padStart(8)}`);
    console.log(`${"pre-warmed".padEnd(12)} ${`${p.toFixed(0)} ms`.padStart(10)} ${`${(p / w).toFixed(1)}×`.padStart(8)}  bar ≤ ${BAR}× warm: ${p <= BAR * w ? "PASS" : "FAIL"}`);
    console.log(`${"warm (floor)".padEnd(12)} ${`${w.toFixed(0)} ms`.padStart(10)} ${"1.0×".padStart(8)}`);
    if (p > BAR * w) process.exitCode = 1;

    // Memory: ten conversations used, one after another, under the daemon's cap.
    for (let i = 0; i < 10; i++) await timeFirstDelta(daemon(), await h.conversation(MODEL), `memory ${i}`);
    const s = await stats(daemon());
    const own = s.warm_processes.filter((x) => !x.shared);
    const each = own.map((x) => x.group_rss_bytes ?? x.rss_bytes ?? 0);
    console.log(
      `\nClaude Code warm process: ${mib(median(each))} resident (median of ${own.length}, with its children); ` +
        `10 conversations used → ${own.length} warm (cap ${s.warm_cap}), ${mib(s.warm_rss_bytes)} in all ` +
        `(uncapped: ≈ ${mib(10 * median(each))})`,
    );
  } finally {
    await h.close();
  }
}

/** Codex: cold = a fresh daemon's first turn (its one app-server starts); pre-warmed = the same after a hint (app-server and a spare thread) and 2 s. */
async function codexFigures(): Promise<void> {
  const h: AgentHarness<"codex"> = await startAgentHarness("codex");
  const daemon = (): BenchDaemon => ({ url: h.daemon.daemon.url, token: h.daemon.daemon.token, api: h.daemon.api });
  try {
    const cold: number[] = [];
    const prewarmed: number[] = [];
    const warm: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      await h.restart(); // the app-server goes with the daemon
      cold.push(await timeFirstDelta(daemon(), await h.conversation(), `cold ${run}`));
      await h.restart();
      const hint = await h.daemon.api.post("/chat/agents/codex/prewarm", {});
      if (hint.body.state !== "started") throw new Error(`pre-warm did not start the app-server: ${JSON.stringify(hint.body)}`);
      await pause(DRAFT_OPEN_MS);
      const id = await h.conversation();
      prewarmed.push(await timeFirstDelta(daemon(), id, `pre-warmed ${run}`));
      warm.push(await timeFirstDelta(daemon(), id, `warm ${run}`));
    }
    const [c, p, w] = [median(cold), median(prewarmed), median(warm)];
    console.log(`\nCodex first text, median of ${RUNS} (real codex vs the fake model server; pre-warm starts the shared app-server and a spare thread)\n`);
    console.log(`${"cold".padEnd(12)} ${`${c.toFixed(0)} ms`.padStart(10)} ${`${(c / w).toFixed(1)}×`.padStart(8)}`);
    console.log(`${"pre-warmed".padEnd(12)} ${`${p.toFixed(0)} ms`.padStart(10)} ${`${(p / w).toFixed(1)}×`.padStart(8)}  bar ≤ ${BAR}× warm: ${p <= BAR * w ? "PASS" : "FAIL"}`);
    console.log(`${"warm (floor)".padEnd(12)} ${`${w.toFixed(0)} ms`.padStart(10)} ${"1.0×".padStart(8)}`);
    if (p > BAR * w) process.exitCode = 1;

    for (let i = 0; i < 10; i++) await timeFirstDelta(daemon(), await h.conversation(), `codex ${i}`);
    const shared = (await stats(daemon())).warm_processes.find((x) => x.shared && x.agent_key === "codex");
    console.log(
      `\nCodex app-server (one for every Codex conversation): ${shared ? mib(shared.group_rss_bytes ?? shared.rss_bytes ?? 0) : "?"} resident with 10 threads loaded`,
    );
  } finally {
    await h.close();
  }
}

await claudeFigures();
await codexFigures();
