/**
 * bench/agent-turns — how soon the owner sees a reply, and what staying warm costs, for each
 * managed agent against its fake model server (real CLIs, 127.0.0.1, the fake streams at once,
 * so every figure is Coffer + the CLI, not a model). Each figure is printed beside its floor,
 * measured in the same run, interleaved so machine noise hits both alike, as p50 [min–max]:
 *
 *   cold first text     a new conversation's first message (no warm process) vs the per-message
 *                       peer (a web UI starting a new CLI per message: claude-peer.ts, codex-peer.ts);
 *                       for Claude Code also vs that peer with Coffer's gateway as its MCP server
 *                       (like for like: the same tools offered; no bar, the bar is the bare peer)
 *   warm follow-up      the next message of a live conversation vs the peer's follow-up (a new
 *                       CLI resuming the session)
 *   second watcher      first text at a second subscriber (another tab, the phone) vs the
 *                       peer's (the reply on disk: transcript-watch.ts)
 *   codex crowding      warm turn start with 50 conversations used vs 1 (codex-threads.ts)
 *   footprint           RSS per warm process and in total with 10 conversations used
 *
 * Bars: warm ≥ 3× faster than cold (issue 5); cold ≤ the peer's (issue 16); Codex with 50
 * conversations used within 1.2× of one (issue 16). The pre-warmed first message is
 * bench/agent-turns/prewarm.ts.
 *
 * Run: npm run bench:agent-turns   (env AGENT_BENCH_RUNS=10; AGENT_BENCH_ONLY=claude|codex|crowding
 * runs one section)
 */
import { startAgentHarness } from "../../packages/daemon/test/fakes/agent-harness.js";
import { makeCodexSandbox } from "../../packages/daemon/test/fakes/codex-home.js";
import { claudePeerTurn, type PeerTurn } from "./claude-peer.js";
import { codexPeerTurn } from "./codex-peer.js";
import { codexCrowding, crowdingRatio } from "./codex-threads.js";
import { rssMb } from "./footprint.js";
import { median, spread, timeFirstDelta, timeWatchedTurn, type WatchedTurn } from "./turn-timing.js";

const RUNS = Math.max(10, Number(process.env.AGENT_BENCH_RUNS ?? 10));
const CONVERSATIONS_USED = 10;
const ONLY = process.env.AGENT_BENCH_ONLY;
const section = (name: string) => !ONLY || ONLY === name;
let failed = false;

interface Columns {
  coldCoffer: number[];
  coldPeer: number[];
  warm: WatchedTurn[];
  warmPeer: PeerTurn[];
  rss: number[];
  /** The peer's cold turn with Coffer's gateway as its MCP server: same tools offered (Claude Code only). */
  coldPeerMcp?: number[];
  /** The same agent's cold turn on a daemon whose app-server is not running yet (Codex only). */
  coldFirstOfDaemon?: number[];
}

const fmt = (samples: readonly number[]) => {
  const s = spread(samples);
  return `${s.p50.toFixed(0).padStart(6)} ms [${s.min.toFixed(0)}–${s.max.toFixed(0)}]`;
};

function row(label: string, coffer: readonly number[], floorLabel: string, floor: readonly number[], bar?: { max?: number; min?: number; name: string }): void {
  const ratio = median(coffer) / median(floor);
  let verdict = "";
  if (bar) {
    const ok = (bar.max === undefined || ratio <= bar.max) && (bar.min === undefined || ratio >= bar.min);
    failed ||= !ok;
    verdict = `  ${bar.name} ${ok ? "PASS" : "FAIL"}`;
  }
  console.log(`  ${label.padEnd(34)} ${fmt(coffer).padEnd(24)} ${floorLabel.padEnd(26)} ${fmt(floor).padEnd(24)} ${ratio.toFixed(2).padStart(6)}×${verdict}`);
}

function report(name: string, c: Columns): void {
  console.log(`\n${name}  (p50 [min–max] of ${RUNS}; ratio = Coffer / floor)`);
  console.log(`  ${"figure".padEnd(34)} ${"Coffer".padEnd(24)} ${"floor".padEnd(26)} ${"".padEnd(24)} ratio`);
  row(c.coldFirstOfDaemon ? "cold, new conversation" : "cold first text", c.coldCoffer, "per-message peer, cold", c.coldPeer, { max: 1, name: "bar ≤ 1×" });
  if (c.coldPeerMcp) row("cold first text (like for like)", c.coldCoffer, "peer + the same MCP server", c.coldPeerMcp);
  if (c.coldFirstOfDaemon) row("cold, app-server start", c.coldFirstOfDaemon, "per-message peer, cold", c.coldPeer);
  const warm = c.warm.map((w) => w.firstText);
  row("warm follow-up first text", warm, "per-message peer, follow-up", c.warmPeer.map((p) => p.firstText));
  row("second watcher first text", c.warm.map((w) => w.watcher), "peer's watcher (on disk)", c.warmPeer.map((p) => p.watcher));
  // Issue 5's bar: cold = the agent's process starts (Codex: the shared app-server, on a daemon's first Codex turn).
  const coldStart = c.coldFirstOfDaemon ?? c.coldCoffer;
  row("warm vs cold start (same agent)", warm, "Coffer cold start", coldStart, { max: 1 / 3, name: "bar warm ≥ 3× faster" });
  const follow = median(c.warmPeer.map((p) => p.firstText)) / median(warm);
  const watch = median(c.warmPeer.map((p) => p.watcher)) / median(c.warm.map((w) => w.watcher));
  console.log(`  → follow-ups ${follow.toFixed(1)}× faster than the peer; a second watcher sees text ${watch.toFixed(1)}× sooner`);
  const total = c.rss.reduce((a, b) => a + b, 0);
  if (c.rss.length) {
    console.log(
      `  footprint, ${CONVERSATIONS_USED} conversations used: ${c.rss.length} warm process(es), ${median(c.rss).toFixed(0)} MB each (p50, max ${Math.max(...c.rss).toFixed(0)}), ${total.toFixed(0)} MB in total` +
        ` — per-message peer: 0 MB idle, one process while a turn runs (${total ? (total / median(c.rss)).toFixed(1) : "0"}× that)`,
    );
  }
}

async function claude(): Promise<Columns> {
  const h = await startAgentHarness("claude_code");
  const d = { url: h.daemon.daemon.url, token: h.daemon.daemon.token, api: h.daemon.api };
  const model = { model: "claude-sonnet-4-5" };
  try {
    const live = await h.conversation(model);
    await timeFirstDelta(d, live, "warm-up");
    const peerSession = (await claudePeerTurn(h, "peer warm-up")).sessionId;
    const gateway = { url: `${d.url}/mcp`, token: d.token };
    await claudePeerTurn(h, "peer warm-up with the gateway", undefined, gateway);
    const c: Columns = { coldCoffer: [], coldPeer: [], coldPeerMcp: [], warm: [], warmPeer: [], rss: [] };
    for (let run = 0; run < RUNS; run++) {
      const fresh = await h.conversation(model);
      c.coldCoffer.push(await timeFirstDelta(d, fresh, `cold ${run}`));
      // Its warm process goes, so every cold start runs beside the same processes as the
      // peer's (the live one): idle ones left behind are the footprint figure, below.
      await h.daemon.api.delete(`/chat/conversations/${fresh}`);
      c.coldPeer.push((await claudePeerTurn(h, `peer cold ${run}`)).firstText);
      c.coldPeerMcp!.push((await claudePeerTurn(h, `peer cold with the gateway ${run}`, undefined, gateway)).firstText);
      c.warm.push(await timeWatchedTurn(d, live, `warm ${run}`));
      c.warmPeer.push(await claudePeerTurn(h, `peer follow-up ${run}`, peerSession));
    }
    const used = [live];
    while (used.length < CONVERSATIONS_USED) {
      const id = await h.conversation(model);
      await timeFirstDelta(d, id, `footprint ${used.length}`);
      used.push(id);
    }
    for (const id of used) {
      const mb = rssMb(h.provider.warmProcess(id)?.pid);
      if (mb !== null) c.rss.push(mb);
    }
    return c;
  } finally {
    await h.close();
  }
}

async function codex(): Promise<Columns> {
  const h = await startAgentHarness("codex");
  const sandbox = await makeCodexSandbox(h.fake.baseUrl);
  const d = () => ({ url: h.daemon.daemon.url, token: h.daemon.daemon.token, api: h.daemon.api });
  try {
    const live = await h.conversation();
    await timeFirstDelta(d(), live, "warm-up");
    const peerThread = (await codexPeerTurn(sandbox, "peer warm-up", null)).sessionId;
    const c: Columns = { coldCoffer: [], coldPeer: [], warm: [], warmPeer: [], rss: [] };
    for (let run = 0; run < RUNS; run++) {
      c.coldCoffer.push(await timeFirstDelta(d(), await h.conversation(), `cold ${run}`));
      c.coldPeer.push((await codexPeerTurn(sandbox, `peer cold ${run}`, null)).firstText);
      c.warm.push(await timeWatchedTurn(d(), live, `warm ${run}`));
      c.warmPeer.push(await codexPeerTurn(sandbox, `peer follow-up ${run}`, peerThread));
    }
    // One app-server holds every conversation's thread: its RSS is the whole warm footprint.
    const mb = rssMb(h.provider.appServerPid);
    if (mb !== null) c.rss.push(mb);
    c.coldFirstOfDaemon = [];
    for (let run = 0; run < RUNS; run++) {
      await h.restart();
      c.coldFirstOfDaemon.push(await timeFirstDelta(d(), await h.conversation(), `first of daemon ${run}`));
    }
    return c;
  } finally {
    await h.close();
    await sandbox.remove();
  }
}

console.log(`Agent turns: real CLIs against fake model servers on 127.0.0.1, ${RUNS} runs per figure`);
if (section("claude")) report("Claude Code", await claude());
if (section("codex")) report("Codex", await codex());
if (section("crowding")) await crowding();

async function crowding(): Promise<void> {
  const OTHERS = 49;
  // Warm turns are ~50 ms: three times the samples, so one noisy run does not decide a 1.2× bar.
  const samples = RUNS * 3;
  const flat = await codexCrowding(samples, OTHERS, true);
  const before = await codexCrowding(samples, OTHERS, false);
  console.log(`\nCodex warm turn start (POST → first text), live conversation, ${OTHERS + 1} conversations used vs 1 (${samples} turns each)`);
  console.log(`  ${"".padEnd(34)} ${"50 used".padEnd(24)} ${"floor".padEnd(26)} ${"".padEnd(24)} ratio`);
  row(`idle threads unloaded (${flat.loaded} loaded)`, flat.crowded, "1 conversation used", flat.one, { max: 1.2, name: "bar ≤ 1.2×" });
  row(`never unloaded (${before.loaded} loaded)`, before.crowded, "1 conversation used", before.one);
  console.log(`  → unloading keeps it ${crowdingRatio(flat).toFixed(2)}× of one thread (never unloaded: ${crowdingRatio(before).toFixed(2)}×)`);
  const mb = (c: { rssMb: number | null }) => (c.rssMb === null ? "?" : `${c.rssMb.toFixed(0)} MB`);
  console.log(`  app-server RSS with ${OTHERS + 1} conversations used: ${mb(flat)} unloading idle threads vs ${mb(before)} never unloading`);
}
if (failed) process.exitCode = 1;
