/**
 * bench/agent-turns — cold vs warm turn start (POST → first `text_delta`) for each managed
 * agent against its fake model server, median of ≥ 10 turns each, printed as a ratio.
 * Bar: warm ≥ 3× faster than cold (the reason sessions stay warm between turns). Adding an agent = one entry in AGENTS.
 *
 * Run: npm run bench:agent-turns   (env AGENT_BENCH_RUNS=10)
 */
import { claudeCodeTurns } from "./claude-code.js";
import { codexTurns } from "./codex.js";
import { median, type AgentTurnBench } from "./turn-timing.js";

const AGENTS: AgentTurnBench[] = [claudeCodeTurns, codexTurns];
const RUNS = Math.max(10, Number(process.env.AGENT_BENCH_RUNS ?? 10));
const BAR = 3;

async function measure(agent: AgentTurnBench): Promise<{ cold: number; warm: number }> {
  const target = await agent.start();
  try {
    const cold: number[] = [];
    const warm: number[] = [];
    // Interleaved, so machine noise hits both columns alike.
    for (let run = 0; run < RUNS; run++) {
      cold.push(await target.coldTurn(run));
      warm.push(await target.warmTurn(run));
    }
    return { cold: median(cold), warm: median(warm) };
  } finally {
    await target.close();
  }
}

console.log(`Turn start, POST → first text_delta, median of ${RUNS} turns (real CLIs vs fake model servers on 127.0.0.1)\n`);
console.log(`${"agent".padEnd(14)} ${"cold".padStart(10)} ${"warm".padStart(10)} ${"cold/warm".padStart(10)}  bar ≥ ${BAR}×`);
let failed = false;
for (const agent of AGENTS) {
  const { cold, warm } = await measure(agent);
  const ratio = cold / warm;
  failed ||= ratio < BAR;
  console.log(
    `${agent.name.padEnd(14)} ${`${cold.toFixed(1)} ms`.padStart(10)} ${`${warm.toFixed(1)} ms`.padStart(10)} ${`${ratio.toFixed(1)}×`.padStart(10)}  ${ratio >= BAR ? "PASS" : "FAIL"}`,
  );
}
if (failed) process.exitCode = 1;
