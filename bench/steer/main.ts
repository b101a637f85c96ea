/**
 * bench/steer — a steered message reaching the agent's next model request (issue 14), with the
 * REAL `claude` and `codex` CLIs against the project's fake model servers on 127.0.0.1 (the
 * rig of packages/daemon/test/integration/steer-agents.test.ts). Each turn runs a tool that
 * blocks on a FIFO — the gate; t0 is the moment the bench has the FIFO open for writing (the
 * tool is reading it) and writes the tool's output:
 *   steer        while the tool blocks, POST …/messages {delivery:"steer"} with a unique marker
 *                (its own 202 latency is printed too); then t0 → the fake model server receiving
 *                the request whose user side holds the marker
 *   floor        the same turn without a steer: t0 → the next model request (the tool result's)
 *   queued       contrast, no bar: the same turn with a message POSTed (default delivery) while
 *                the tool blocks; the rest of the turn takes one scripted model step (the tool
 *                result's reply) and the queued text reaches the model only after the turn ends —
 *                POST → and t0 → its model request
 * Runs are interleaved (steer and floor alternate which goes first), so machine noise hits every
 * column alike. Bar: steer's t0 → request p50 ≤ 1.5× the floor's.
 *
 * Run: npm run bench:steer   (env STEER_BENCH_RUNS=10, at least 10; STEER_BENCH_AGENTS=claude_code,codex)
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import type { ChatEvent } from "@coffer/protocol";
import { AGENTS, startAgentHarness, type AgentHarness, type AgentKey } from "../../packages/daemon/test/fakes/agent-harness.js";
import type { FakeAnthropic } from "../../packages/daemon/test/fakes/fake-anthropic.js";
import type { FakeOpenAiResponses } from "../../packages/daemon/test/fakes/fake-openai-responses.js";
import type { SseSubscription } from "../../packages/daemon/test/support/http-client.js";

const RUNS = Math.max(10, Number(process.env.STEER_BENCH_RUNS ?? 10));
const WANTED = (process.env.STEER_BENCH_AGENTS ?? AGENTS.join(",")).split(",").filter((a): a is AgentKey => (AGENTS as readonly string[]).includes(a));
const BAR = 1.5;
const isTerminal = (e: ChatEvent) => e.type === "turn_done" || e.type === "turn_error";

/** A model request as the bench sees it: when it arrived and what the user side carried. */
interface Seen {
  readonly at: number;
  readonly index: number;
}

/** Waits for the first model request (past or future) whose user side (user messages, tool results) contains `needle`. */
function requestHolding(h: AgentHarness, needle: string): Promise<Seen> {
  if (h.agent === "claude_code") {
    const fake = h.fake as FakeAnthropic;
    return fake
      .waitForRequest((r) => JSON.stringify((JSON.parse(r.raw) as { messages: { role: string }[] }).messages.filter((m) => m.role === "user")).includes(needle))
      .then((r) => ({ at: r.receivedAt, index: fake.requests.indexOf(r) }));
  }
  const fake = h.fake as FakeOpenAiResponses;
  return fake
    .waitForRequest((r) => JSON.stringify(r.input.filter((i) => i.type !== "message" || i.role !== "assistant")).includes(needle))
    .then((r) => ({ at: r.receivedAt, index: fake.requests.indexOf(r) }));
}

/** Starts a turn whose tool blocks on a new FIFO; resolves once the tool is under way. */
async function blockedTurn(h: AgentHarness, id: string, sub: SseSubscription, name: string): Promise<{ fifo: string; from: number }> {
  const fifo = join(h.workDir, `gate-${name}`);
  execFileSync("mkfifo", [fifo]);
  const from = sub.events.length;
  await h.send(id, h.agent === "claude_code" ? `RUN: cat ${fifo}` : `USE_TOOL cat ${fifo}`);
  // Claude reports the tool call as it starts; Codex only when it completes, so for Codex the
  // signal is the fake having been asked (its reply is the blocking command).
  if (h.agent === "claude_code") await sub.waitFor((e) => e.type === "tool_call", from);
  else await (h.fake as FakeOpenAiResponses).waitForRequest((r) => r.userText.startsWith("USE_TOOL") && r.userText.includes(fifo));
  // Under load Codex may not have spawned the command yet when the fake was asked; a steer then
  // lands before the tool runs (not the case measured here), so wait for the reader itself.
  await readerOf(fifo);
  if (process.env.STEER_BENCH_DEBUG) console.error(`[${name}] tool reading the gate`);
  return { fifo, from };
}

/**
 * Resolves once a `cat` of the FIFO runs (it blocks in open() until the bench opens the
 * writing end, so it holds no fd yet: its command line is the signal); polls /proc every 5 ms.
 */
async function readerOf(fifo: string): Promise<void> {
  for (;;) {
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
        if (argv[0]?.endsWith("cat") && argv.includes(fifo)) return;
      } catch {
        // gone while we looked
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Opens the gate: opening a FIFO for writing waits for its reader, so t0 is taken when the
 * tool is certainly blocked reading it — the same instant for every kind of turn.
 */
async function release(fifo: string, output: string): Promise<number> {
  const fh = await open(fifo, "w");
  const t0 = performance.now();
  if (process.env.STEER_BENCH_DEBUG) console.error(`gate open: ${output}`);
  await fh.write(`${output}\n`);
  await fh.close();
  return t0;
}

async function endOf(sub: SseSubscription, from: number, turns = 1): Promise<void> {
  let at = from;
  for (let i = 0; i < turns; i++) {
    const end = await sub.waitFor(isTerminal, at);
    if (end.event.type !== "turn_done") throw new Error(`turn failed: ${JSON.stringify(end.event)}`);
    at = sub.events.indexOf(end) + 1;
  }
}

interface Samples {
  steer: number[];
  ack: number[];
  floor: number[];
  queuedFromPost: number[];
  queuedFromT0: number[];
  /** Model requests between the tool result's and the queued text's (the turn's rest). */
  queuedGap: number[];
}

async function runSteer(h: AgentHarness, id: string, sub: SseSubscription, run: number, s: Samples): Promise<void> {
  const { fifo, from } = await blockedTurn(h, id, sub, `steer-${run}`);
  const before = h.fake.requests.length;
  const marker = `STEER-${h.agent}-${run}-${Math.random().toString(36).slice(2, 8)}`;
  const p0 = performance.now();
  const ack = await h.daemon.api.post(`/chat/conversations/${id}/messages`, { text: `also say ${marker}`, delivery: "steer" });
  s.ack.push(performance.now() - p0);
  if (ack.status !== 202 || ack.body.steered !== true) throw new Error(`steer not taken: ${ack.status} ${JSON.stringify(ack.body)}`);
  if (h.fake.requests.length !== before) throw new Error("the model was asked while the tool blocked");
  const reached = requestHolding(h, marker);
  const t0 = await release(fifo, `tool-output-steer-${run}`);
  const seen = await reached;
  s.steer.push(seen.at - t0);
  if (seen.index !== before) throw new Error(`the steer reached request #${seen.index}, not the next one (#${before})`);
  await endOf(sub, from);
}

async function runFloor(h: AgentHarness, id: string, sub: SseSubscription, run: number, s: Samples): Promise<void> {
  const { fifo, from } = await blockedTurn(h, id, sub, `floor-${run}`);
  const output = `tool-output-floor-${run}`;
  const reached = requestHolding(h, output);
  const t0 = await release(fifo, output);
  s.floor.push((await reached).at - t0);
  await endOf(sub, from);
}

async function runQueued(h: AgentHarness, id: string, sub: SseSubscription, run: number, s: Samples): Promise<void> {
  const { fifo, from } = await blockedTurn(h, id, sub, `queued-${run}`);
  const output = `tool-output-queued-${run}`;
  const marker = `QUEUED-${h.agent}-${run}-${Math.random().toString(36).slice(2, 8)}`;
  const resultSeen = requestHolding(h, output);
  const reached = requestHolding(h, marker);
  const p0 = performance.now();
  const ack = await h.daemon.api.post(`/chat/conversations/${id}/messages`, { text: `later ${marker}` });
  if (ack.status !== 202 || ack.body.queued !== true) throw new Error(`not queued: ${ack.status} ${JSON.stringify(ack.body)}`);
  const t0 = await release(fifo, output);
  const [result, seen] = await Promise.all([resultSeen, reached]);
  s.queuedFromPost.push(seen.at - p0);
  s.queuedFromT0.push(seen.at - t0);
  s.queuedGap.push(seen.index - result.index);
  await endOf(sub, from, 2); // the gated turn, then the queued message's own
}

function pct(samples: readonly number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}
const ms = (v: number) => `${v.toFixed(1)} ms`;

async function bench(agent: AgentKey): Promise<boolean> {
  const h = await startAgentHarness(agent);
  const subs: SseSubscription[] = [];
  try {
    const conv = async () => {
      const id = await h.conversation();
      const sub = await h.daemon.subscribe(id);
      subs.push(sub);
      return { id, sub };
    };
    const [steer, floor, queued] = [await conv(), await conv(), await conv()];
    // Warm-up: each conversation's process (Claude) / thread (Codex) starts outside the figures.
    const warm: Samples = { steer: [], ack: [], floor: [], queuedFromPost: [], queuedFromT0: [], queuedGap: [] };
    await runSteer(h, steer.id, steer.sub, -1, warm);
    await runFloor(h, floor.id, floor.sub, -1, warm);
    await runQueued(h, queued.id, queued.sub, -1, warm);

    const s: Samples = { steer: [], ack: [], floor: [], queuedFromPost: [], queuedFromT0: [], queuedGap: [] };
    for (let run = 0; run < RUNS; run++) {
      if (run % 2 === 0) {
        await runSteer(h, steer.id, steer.sub, run, s);
        await runFloor(h, floor.id, floor.sub, run, s);
      } else {
        await runFloor(h, floor.id, floor.sub, run, s);
        await runSteer(h, steer.id, steer.sub, run, s);
      }
      await runQueued(h, queued.id, queued.sub, run, s);
    }

    const f50 = pct(s.floor, 50);
    const row = (name: string, xs: number[], ratio: boolean, note = "") =>
      console.log(
        `${name.padEnd(30)} ${ms(pct(xs, 50)).padStart(10)} ${ms(pct(xs, 95)).padStart(10)} ${ratio ? `${(pct(xs, 50) / f50).toFixed(2)}×`.padStart(8) : "".padStart(8)}${note}`,
      );
    console.log(`\n${agent} (real CLI vs the fake model server), ${RUNS} interleaved runs, load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}\n`);
    console.log(`${"".padEnd(30)} ${"p50".padStart(10)} ${"p95".padStart(10)} ${"÷ floor".padStart(8)}`);
    const pass = pct(s.steer, 50) <= BAR * f50;
    row("steer: t0 → model request", s.steer, true, `  bar ≤ ${BAR}× floor: ${pass ? "PASS" : "FAIL"}`);
    row("floor: t0 → model request", s.floor, true);
    row("steer POST → 202", s.ack, false);
    row("queued: t0 → its request", s.queuedFromT0, true, "  (contrast, no bar)");
    row("queued: POST → its request", s.queuedFromPost, false);
    console.log(`queued text came ${Math.min(...s.queuedGap)}–${Math.max(...s.queuedGap)} model request(s) after the tool result's (the rest of the turn)`);
    return pass;
  } finally {
    for (const sub of subs) sub.close();
    await h.close();
  }
}

let ok = true;
for (const agent of WANTED) ok = (await bench(agent)) && ok;
if (!ok) process.exitCode = 1;
