/**
 * bench/attachments — what a file costs on its way to the agent, and what uploads cost the daemon
 * (issue 25). A real daemon in its own process with both real agent CLIs (`claude`, `codex`)
 * against the fake model servers on 127.0.0.1; every figure beside its floor, measured in the
 * same run, interleaved so machine noise hits both alike:
 *
 *   5 MB image → first model request
 *       from each surface (the page's HTTP path: upload + send; the CLI: `coffer chat send
 *       --attach`), the time from the send's start to the agent's first request fully received
 *       at the fake model server, p50/p95, vs the same surface's text-only message (the floor)
 *       in the same warm conversation just before. The image is real PNG noise (sharp), so the
 *       daemon fits it (JPEG, ≤ 1568 px) as it would a phone's screenshot; the fake checks that
 *       the request carries it as an image.
 *   peak RSS under 10 × 30 MB uploads at once
 *       the daemon's VmHWM while they run vs its idle VmRSS. Bar: bounded — the growth stays
 *       under one upload's bytes (30 MB), i.e. no upload is ever held whole, let alone ten.
 *
 * Telegram is not a surface yet (surfaces.ts, telegramSurface, says why and how to add it).
 *
 * Run: npm run bench:attachments   (env ATTACH_BENCH_RUNS=8: turns per surface and kind;
 * ATTACH_BENCH_ONLY=claude_code|codex|rss runs one section). Needs `npm run build` (the CLI).
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeAgentRig, hermeticPath, type AgentKey, type AgentRig } from "../../packages/daemon/test/fakes/agent-rig.js";
import { ApiClient } from "../../packages/daemon/test/support/http-client.js";
import { spawnDaemon, type DaemonProcess } from "../../packages/daemon/test/support/spawn-daemon.js";
import { makeHome } from "../../packages/daemon/test/support/test-daemon.js";
import { within } from "../support/child.js";
import { summarize, table, verdict } from "../support/stats.js";
import { noisePng } from "./image.js";
import { firstRequest } from "./model-side.js";
import { cliSurface, pageSurface, telegramSurface, type BenchDaemon, type Surface } from "./surfaces.js";
import { measureUploadRss } from "./upload-rss.js";

const RUNS = Math.max(3, Number(process.env.ATTACH_BENCH_RUNS ?? 8));
const ONLY = process.env.ATTACH_BENCH_ONLY;
const IMAGE_MB = 5;
const UPLOADS = 10;
const UPLOAD_MB = 30;
const AGENTS: readonly AgentKey[] = ["claude_code", "codex"];
const TURN_MS = 120_000;

interface Column {
  text: number[];
  image: number[];
}

/** One daemon process with both agents on its PATH, each talking to its own fake model server. */
async function startDaemon(claude: AgentRig<"claude_code">, codex: AgentRig<"codex">): Promise<{ child: DaemonProcess; d: BenchDaemon; api: ApiClient }> {
  const home = await makeHome();
  const env: NodeJS.ProcessEnv = {
    ...claude.env,
    ...codex.env,
    CLAUDE_CONFIG_DIR: claude.agentHome,
    PATH: [claude.binDir, hermeticPath(codex.binDir)].join(":"),
    COFFER_WEB_ROOT: "none",
    COFFER_LOG_LEVEL: "error",
  };
  const child = await spawnDaemon(home, env, { hermetic: true });
  return { child, d: { url: child.url, token: child.token, home }, api: new ApiClient(child.url, child.token) };
}

/** From the send's start to the agent's first request carrying the message, at the fake model server. */
async function timeTurn(rigs: Rigs, agent: AgentKey, s: Surface, d: BenchDaemon, id: string, label: string, image: string | null): Promise<number> {
  const tag = `bench-${randomBytes(4).toString("hex")}`;
  const seen = firstRequest(rigs, agent, tag);
  const { startedAt } = await within(TURN_MS, s.send(d, id, `${label} ${tag}`, image), `${agent} ${s.name} ${label}`);
  const request = await within(TURN_MS, seen, `the model request of ${label}`);
  if (request.hasImage !== (image !== null)) throw new Error(`${agent} ${s.name} ${label}: the model request ${request.hasImage ? "had" : "lacked"} an image`);
  return request.receivedAt - startedAt;
}

interface Rigs {
  claude_code: AgentRig<"claude_code">;
  codex: AgentRig<"codex">;
}

async function imageTurns(rigs: Rigs, d: BenchDaemon, api: ApiClient, agent: AgentKey, surfaces: readonly Surface[], image: string): Promise<Map<string, Column>> {
  const out = new Map(surfaces.map((s) => [s.name, { text: [], image: [] } as Column]));
  for (let run = 0; run < RUNS; run++) {
    for (const s of surfaces) {
      // A fresh conversation per surface and run, warmed by a first text message (the agent's cold
      // start is bench/agent-turns' figure): then text, then image, so the text floor's history
      // holds no image and both run on the same warm process.
      const created = await api.post("/chat/conversations", { agent_key: agent, agent_config: {} });
      if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
      const id = created.body.id as string;
      await timeTurn(rigs, agent, pageSurface, d, id, "warm-up", null);
      out.get(s.name)!.text.push(await timeTurn(rigs, agent, s, d, id, `text ${run}`, null));
      out.get(s.name)!.image.push(await timeTurn(rigs, agent, s, d, id, `image ${run}`, image));
      await api.delete(`/chat/conversations/${id}`);
    }
  }
  return out;
}

const f0 = (v: number) => v.toFixed(0);

function printTurns(agent: AgentKey, columns: Map<string, Column>): void {
  const rows: string[][] = [["surface", "text-only p50 / p95", `${IMAGE_MB} MB image p50 / p95`, "ratio p50", "ratio p95"]];
  for (const [surface, c] of columns) {
    const t = summarize(c.text);
    const i = summarize(c.image);
    rows.push([surface, `${f0(t.p50)} / ${f0(t.p95)} ms`, `${f0(i.p50)} / ${f0(i.p95)} ms`, `${(i.p50 / t.p50).toFixed(2)}×`, `${(i.p95 / t.p95).toFixed(2)}×`]);
  }
  console.log(`\n${agent}: send → the agent's first model request (${RUNS} runs each; floor = the same surface's text-only message)`);
  console.log(table(rows));
}

async function main(): Promise<void> {
  const files = await mkdtemp(join(tmpdir(), "coffer-bench-attach-"));
  const claude = await makeAgentRig("claude_code");
  const codex = await makeAgentRig("codex");
  const rigs: Rigs = { claude_code: claude, codex };
  let failed = false;
  let daemon: Awaited<ReturnType<typeof startDaemon>> | undefined;
  try {
    if (!existsSync(join(import.meta.dirname, "../../packages/cli/dist/main.js"))) throw new Error("the CLI is not built: npm run build");
    const image = join(files, "screenshot.png");
    const png = await noisePng(IMAGE_MB);
    await writeFile(image, png);
    const telegram = telegramSurface();
    const surfaces = [pageSurface, cliSurface, ...(telegram ? [telegram] : [])];
    console.log(`bench/attachments: a ${(png.length / 1024 / 1024).toFixed(1)} MiB PNG (${png.length} bytes); surfaces: ${surfaces.map((s) => s.name).join(", ")}`);
    if (!telegram) console.log("  Telegram: not measured — inbound files are not stored as attachments on this branch (surfaces.ts, telegramSurface)");

    daemon = await startDaemon(claude, codex);
    const agents = (await daemon.api.get("/chat/agents")).body.agents as { agent_key: string; available: boolean }[];
    for (const agent of AGENTS) {
      if (ONLY && ONLY !== agent) continue;
      if (!agents.find((a) => a.agent_key === agent)?.available) throw new Error(`${agent} is not available: ${JSON.stringify(agents)}`);
      printTurns(agent, await imageTurns(rigs, daemon.d, daemon.api, agent, surfaces, image));
    }
    daemon.child.child.kill("SIGTERM");
    await daemon.child.exited;
    daemon = undefined;

    if (!ONLY || ONLY === "rss") {
      // A fresh daemon: its idle memory is not what earlier turns left behind.
      daemon = await startDaemon(claude, codex);
      const big = join(files, "upload.bin");
      await writeFile(big, randomBytes(UPLOAD_MB * 1024 * 1024));
      const m = await within(TURN_MS, measureUploadRss({ ...daemon.d, pid: daemon.child.pid }, big, UPLOADS), "the uploads");
      const growth = m.peakMb - m.idleMb;
      const ok = growth < UPLOAD_MB;
      failed ||= !ok;
      console.log(`\ndaemon memory: ${UPLOADS} × ${UPLOAD_MB} MB uploads at once (${m.sentMb.toFixed(0)} MiB sent in ${f0(m.wallMs)} ms)`);
      console.log(
        table([
          ["figure", "MiB", "floor", "MiB", "bar"],
          ["peak RSS (VmHWM) during the uploads", m.peakMb.toFixed(1), "idle RSS (VmRSS)", m.idleMb.toFixed(1), ""],
          ["growth over idle", growth.toFixed(1), "the bytes in flight", m.sentMb.toFixed(0), `< one upload (${UPLOAD_MB} MiB) ${verdict(ok)}`],
          ["RSS after the uploads", m.afterMb.toFixed(1), "", "", ""],
        ]),
      );
    }
  } finally {
    if (daemon) {
      daemon.child.child.kill("SIGTERM");
      await daemon.child.exited;
    }
    await claude.close();
    await codex.close();
    await rm(files, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

await main();
