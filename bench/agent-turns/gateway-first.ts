/**
 * bench/agent-turns/gateway-first — the first MCP handshake a fresh daemon's gateway answers
 * (what a `claude` starting for the first turn after a daemon start waits on), over real HTTP
 * on 127.0.0.1 with the CLI's four exchanges in its order: initialize, notifications/initialized,
 * the GET for a server stream (405), tools/list. Each run is a fresh daemon in its own Node
 * process (module caches and JIT state start empty, as after `coffer start`):
 *   SDK loaded      the owner showed intent 2 s before and only the MCP server SDK was loaded
 *                   (the daemon before the rehearsal)
 *   rehearsed       the owner showed intent 2 s before (a conversation was created), which now
 *                   also rehearses one handshake in-process (gatewayRehearsal)
 *   floor           the same daemon's second handshake, right after the first
 * Runs alternate, so machine noise hits both alike; printed p50 [min–max].
 *
 * Run: npm run bench:agent-turns:gateway   (env GATEWAY_BENCH_RUNS=6)
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { mcpServerSdk } from "../../packages/daemon/src/infrastructure/mcp/mcp-sdk.js";
import { startTestDaemon } from "../../packages/daemon/test/support/test-daemon.js";
import { spread } from "./turn-timing.js";

const RUNS = Math.max(4, Number(process.env.GATEWAY_BENCH_RUNS ?? 6));
const INTENT_MS = 2000;
type Mode = "sdk" | "rehearsed";

async function handshake(url: string, token: string): Promise<number> {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
  const post = async (body: unknown, expect: number) => {
    const res = await fetch(`${url}/mcp`, { method: "POST", headers, body: JSON.stringify(body) });
    await res.text();
    if (res.status !== expect) throw new Error(`gateway answered ${res.status}`);
  };
  const t0 = performance.now();
  await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } } }, 200);
  await post({ jsonrpc: "2.0", method: "notifications/initialized" }, 202);
  await (await fetch(`${url}/mcp`, { headers: { ...headers, accept: "text/event-stream" } })).text();
  await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, 200);
  return performance.now() - t0;
}

async function child(mode: Mode): Promise<void> {
  const d = await startTestDaemon();
  try {
    if (mode === "sdk") await mcpServerSdk();
    else {
      const res = await d.api.post("/chat/conversations", { agent_key: "claude_code", agent_config: {} });
      if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, INTENT_MS)); // the owner types
    const first = await handshake(d.daemon.url, d.daemon.token);
    const second = await handshake(d.daemon.url, d.daemon.token);
    process.stdout.write(JSON.stringify({ first, second }) + "\n");
  } finally {
    await d.close();
  }
}

function runChild(mode: Mode): Promise<{ first: number; second: number }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "child", mode], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    p.stdout.on("data", (c) => (out += c));
    p.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").pop()!)) : reject(new Error(`child ${mode} exited ${code}`))));
  });
}

async function main(): Promise<void> {
  const cols: Record<Mode, { first: number[]; second: number[] }> = { sdk: { first: [], second: [] }, rehearsed: { first: [], second: [] } };
  for (let run = 0; run < RUNS; run++) {
    for (const mode of ["sdk", "rehearsed"] as const) {
      const r = await runChild(mode);
      cols[mode].first.push(r.first);
      cols[mode].second.push(r.second);
    }
  }
  const fmt = (xs: number[]) => {
    const s = spread(xs);
    return `${s.p50.toFixed(1)} ms [${s.min.toFixed(1)}–${s.max.toFixed(1)}]`;
  };
  const floor = [...cols.sdk.second, ...cols.rehearsed.second];
  console.log(`Gateway: a fresh daemon's first MCP handshake (4 exchanges over HTTP), p50 [min–max] of ${RUNS} each\n`);
  console.log(`  SDK loaded on intent (before)   ${fmt(cols.sdk.first).padEnd(26)} ${(spread(cols.sdk.first).p50 / spread(floor).p50).toFixed(1)}× floor`);
  console.log(`  rehearsed on intent (now)       ${fmt(cols.rehearsed.first).padEnd(26)} ${(spread(cols.rehearsed.first).p50 / spread(floor).p50).toFixed(1)}× floor`);
  console.log(`  floor: the second handshake     ${fmt(floor)}`);
}

if (process.argv[2] === "child") await child(process.argv[3] as Mode);
else await main();
