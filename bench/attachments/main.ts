/**
 * bench/attachments — what a file costs on its way to the agent, and what uploads cost the daemon
 * (issue 25). A real daemon in its own process with both real agent CLIs (`claude`, `codex`)
 * against the fake model servers on 127.0.0.1; every figure beside its floor, measured in the
 * same run, interleaved so machine noise hits both alike:
 *
 *   5 MB image → first model request
 *       from each surface (the page's HTTP path: upload + send; the CLI: `coffer chat send
 *       --attach`; the phone: a Telegram photo from the paired owner on the fake Bot API, a
 *       5 MB JPEG as Telegram delivers photos), the time from the send's start (for the phone:
 *       the update offered) to the agent's first request fully received at the fake model server, p50/p95, vs the same surface's text-only message (the floor)
 *       in the same warm conversation just before. The image is real PNG noise (sharp), so the
 *       daemon fits it (JPEG, ≤ 1568 px) as it would a phone's screenshot; the fake checks that
 *       the request carries it as an image. For the page, the upload's own share (POST
 *       /attachments answered) is printed beside it; the rest is the send, the fit and the agent.
 *   peak RSS under 10 × 30 MB uploads at once
 *       the daemon's VmHWM while they run vs its idle VmRSS. Bar: bounded — the growth stays
 *       under two uploads' bytes (60 MiB, a fifth of those in flight; upload-rss.ts says why).
 *
 * Run: npm run bench:attachments   (env ATTACH_BENCH_RUNS=8: turns per surface and kind;
 * ATTACH_BENCH_ONLY=claude_code|codex|rss runs one section). Needs `npm run build` (the CLI).
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentKey } from "../../packages/daemon/test/fakes/agent-rig.js";
import { within } from "../support/child.js";
import { summarize, table, verdict } from "../support/stats.js";
import { noiseJpeg, noisePng } from "./image.js";
import { cliSurface, pageSurface } from "./surfaces.js";
import { telegramSurface } from "./telegram-surface.js";
import { agentAvailable, imageTurns, startBenchRig, type BenchRig, type Column } from "./turns.js";
import { GROWTH_BAR_MB, measureUploadRss } from "./upload-rss.js";

const RUNS = Math.max(3, Number(process.env.ATTACH_BENCH_RUNS ?? 8));
const ONLY = process.env.ATTACH_BENCH_ONLY;
const IMAGE_MB = 5;
const UPLOADS = 10;
const UPLOAD_MB = 30;
const AGENTS: readonly AgentKey[] = ["claude_code", "codex"];

const f0 = (v: number) => v.toFixed(0);

function printTurns(agent: AgentKey, columns: Map<string, Column>): void {
  const rows: string[][] = [["surface", "text-only p50 / p95", `${IMAGE_MB} MB image p50 / p95`, "ratio p50", "ratio p95", "of which the upload p50"]];
  for (const [surface, c] of columns) {
    const t = summarize(c.text);
    const i = summarize(c.image);
    const upload = c.upload.length ? `${f0(summarize(c.upload).p50)} ms` : "not seen apart";
    rows.push([surface, `${f0(t.p50)} / ${f0(t.p95)} ms`, `${f0(i.p50)} / ${f0(i.p95)} ms`, `${(i.p50 / t.p50).toFixed(2)}×`, `${(i.p95 / t.p95).toFixed(2)}×`, upload]);
  }
  console.log(`\n${agent}: send → the agent's first model request (${RUNS} runs each; floor = the same surface's text-only message)`);
  console.log(table(rows));
}

/** The uploads' section; false when the bar fails. */
async function uploads(b: BenchRig, files: string): Promise<boolean> {
  const big = join(files, "upload.bin");
  await writeFile(big, randomBytes(UPLOAD_MB * 1024 * 1024));
  const m = await within(120_000, measureUploadRss({ ...b.d, pid: b.child.pid }, big, UPLOADS), "the uploads");
  const growth = m.peakMb - m.idleMb;
  const ok = growth < GROWTH_BAR_MB;
  console.log(`\ndaemon memory: ${UPLOADS} × ${UPLOAD_MB} MB uploads at once (${m.sentMb.toFixed(0)} MiB sent in ${f0(m.wallMs)} ms)`);
  console.log(
    table([
      ["figure", "MiB", "floor", "MiB", "bar"],
      ["peak RSS (VmHWM) during the uploads", m.peakMb.toFixed(1), "idle RSS (VmRSS)", m.idleMb.toFixed(1), ""],
      ["growth over idle", growth.toFixed(1), "the bytes in flight", m.sentMb.toFixed(0), `< ${GROWTH_BAR_MB} MiB (two uploads) ${verdict(ok)}`],
      ["RSS after the uploads", m.afterMb.toFixed(1), "", "", ""],
    ]),
  );
  return ok;
}

async function main(): Promise<void> {
  if (!existsSync(join(import.meta.dirname, "../../packages/cli/dist/main.js"))) throw new Error("the CLI is not built: npm run build");
  const files = await mkdtemp(join(tmpdir(), "coffer-bench-attach-"));
  let failed = false;
  try {
    const image = join(files, "screenshot.png");
    const png = await noisePng(IMAGE_MB);
    await writeFile(image, png);
    const photo = await noiseJpeg(IMAGE_MB);
    console.log(`bench/attachments: a ${(png.length / 1024 / 1024).toFixed(1)} MiB PNG (${png.length} bytes) from the page and the CLI, a ${(photo.length / 1024 / 1024).toFixed(1)} MiB JPEG (${photo.length} bytes) from the phone`);

    if (!ONLY || ONLY !== "rss") {
      const b = await startBenchRig();
      try {
        const surfaces = [pageSurface, cliSurface, await telegramSurface(b.d, b.tg, photo)];
        for (const agent of AGENTS) {
          if (ONLY && ONLY !== agent) continue;
          if (!(await agentAvailable(b, agent))) throw new Error(`${agent} is not available`);
          printTurns(agent, await imageTurns(b, agent, surfaces, image, RUNS));
        }
      } finally {
        await b.close();
      }
    }
    if (!ONLY || ONLY === "rss") {
      // A fresh daemon: its idle memory is not what earlier turns left behind.
      const b = await startBenchRig();
      try {
        failed ||= !(await uploads(b, files));
      } finally {
        await b.close();
      }
    }
  } finally {
    await rm(files, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

await main();
