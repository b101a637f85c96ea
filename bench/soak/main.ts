/**
 * bench/soak — the daemon (its own process, real SQLite, real HTTP on 127.0.0.1) under a steady
 * mix for a fixed time, sampled every minute, to find what grows without bound:
 *   - turns on the REAL `claude` and `codex` CLIs against the repo's fake model servers
 *   - queue edits on the scripted agent (a turn runs; three queue; one is held, edited, saved; one dropped)
 *   - watchers coming and going (the list stream and conversation streams, opened and closed)
 *   - searches over the conversations
 *   - a Telegram chat against the fake Bot API (grammY, long polling), /new now and then
 * Every loop keeps a bounded set of conversations (new ones made, oldest deleted), so a flat
 * daemon stays flat. Sampled from GET /system/stats: RSS, V8 heap used, open descriptors,
 * DB file and WAL bytes, live-bus subscribers; and from the DB file (read-only, dbstat) the
 * bytes its tables hold outside the audit log, and the audit log's rows. At the end: each figure's floor (the first ten
 * minutes; a third of the run when it is shorter than 30 min), its growth per hour after the
 * floor, and the verdict (bench/soak/growth.ts, docs/decisions.md "The soak").
 *
 * Run: npm run build && npm run bench:soak -- [--minutes 30] [--sample-seconds 60]
 *   --minutes N         how long the mix runs (default 30; e.g. 3 to try it, 240 for a long soak)
 *   --sample-seconds S  time between samples (default 60; 15 when --minutes is under 10)
 * Writes bench/out/soak-<time>.json with every sample. Exits 1 on steady growth or a loop
 * that never succeeded.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { SystemStatsOut } from "@coffer/protocol";
import Database from "better-sqlite3";
import { hermeticPath, makeAgentRig } from "../../packages/daemon/test/fakes/agent-rig.js";
import { FakeTelegram } from "../../packages/daemon/test/fakes/fake-telegram.js";
import { BOT, OWNER } from "../../packages/daemon/test/support/channel-rig.js";
import { ApiClient } from "../../packages/daemon/test/support/http-client.js";
import { spawnDaemon } from "../../packages/daemon/test/support/spawn-daemon.js";
import { makeHome } from "../../packages/daemon/test/support/test-daemon.js";
import { within } from "../support/child.js";
import { table, verdict } from "../support/stats.js";
import { DEFAULT_MAX_PERCENT_PER_HOUR, growth, type Sample } from "./growth.js";
import { agentTurns, phoneChat, queueEdits, searches, watchers, type Counts, type Daemon } from "./mix.js";

const { values: flags } = parseArgs({
  options: { minutes: { type: "string", default: "30" }, "sample-seconds": { type: "string" } },
});
const MINUTES = Number(flags.minutes);
if (!(MINUTES > 0)) throw new Error(`--minutes must be a positive number (got ${flags.minutes})`);
const SAMPLE_MS = Number(flags["sample-seconds"] ?? (MINUTES < 10 ? 15 : 60)) * 1000;
const RUN_MS = MINUTES * 60_000;
/** The first ten minutes; a shorter run scales it down to its first third. */
const FLOOR_MS = MINUTES >= 30 ? 10 * 60_000 : RUN_MS / 3;

/** Judged against the bar. */
const JUDGED = ["rss_bytes", "heap_used_bytes", "open_fds", "db_outside_audit_bytes", "wal_bytes", "bus_subscribers"] as const;
/**
 * Shown with their growth, not judged: the audit log keeps a row per turn for as long as the
 * data dir lives (it has no retention), so the file grows with it by design; the bytes every
 * other table holds (db_outside_audit_bytes) are what must stay flat.
 */
const REPORTED = ["db_file_bytes", "audit_rows"] as const;
const METRICS = [...JUDGED, ...REPORTED] as const;
type Metric = (typeof METRICS)[number];

/** Pages in use per table, read from the daemon's database file (a read-only connection: SQLite's dbstat). */
function tableBytes(home: string): { auditBytes: number; otherBytes: number; auditRows: number } {
  const db = new Database(join(home, "coffer.db"), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name").all() as { name: string; bytes: number }[];
    const audit = rows.filter((r) => r.name.startsWith("audit_log"));
    const auditRows = (db.prepare("SELECT count(*) AS n FROM audit_log").get() as { n: number }).n;
    return {
      auditBytes: audit.reduce((s, r) => s + r.bytes, 0),
      otherBytes: rows.filter((r) => !r.name.startsWith("audit_log")).reduce((s, r) => s + r.bytes, 0),
      auditRows,
    };
  } finally {
    db.close();
  }
}

function figures(s: SystemStatsOut, home: string): Record<Metric, number> {
  const tables = tableBytes(home);
  return {
    rss_bytes: s.daemon.rss_bytes,
    heap_used_bytes: s.daemon.heap_used_bytes,
    open_fds: s.daemon.open_fds ?? Number.NaN,
    db_outside_audit_bytes: tables.otherBytes,
    wal_bytes: s.db.wal_bytes,
    bus_subscribers: s.bus_subscribers,
    db_file_bytes: s.db.file_bytes,
    audit_rows: tables.auditRows,
  };
}

function show(metric: string, v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (metric.endsWith("bytes")) return v < 2 ** 20 ? `${(v / 1024).toFixed(0)} KiB` : `${(v / 2 ** 20).toFixed(1)} MiB`;
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

async function main(): Promise<void> {
  const claude = await makeAgentRig("claude_code");
  const codex = await makeAgentRig("codex");
  const tg = await FakeTelegram.start();
  tg.addBot(BOT);
  const home = await makeHome();
  // Both CLIs on one PATH; each keeps its own config home and fake model server.
  const env: NodeJS.ProcessEnv = {
    ...claude.env,
    ...codex.env,
    CLAUDE_CONFIG_DIR: claude.agentHome,
    PATH: [claude.binDir, hermeticPath(codex.binDir)].join(":"),
    COFFER_TELEGRAM_API_ROOT: tg.apiRoot,
    COFFER_TELEGRAM_POLL_TIMEOUT_SECONDS: "5",
    COFFER_TEST_FAST_CHANNELS: "1",
    COFFER_WEB_ROOT: "none",
    COFFER_LOG_LEVEL: "error",
  };
  const child = await spawnDaemon(home, env, { hermetic: true });
  const api = new ApiClient(child.url, child.token);
  const d: Daemon = { url: child.url, token: child.token, api };
  const stop = new AbortController();
  try {
    const agents = (await api.get("/chat/agents")).body.agents as { agent_key: string; available: boolean }[];
    for (const key of ["claude_code", "codex", "scripted"]) {
      if (!agents.find((a) => a.agent_key === key)?.available) throw new Error(`agent ${key} is not available: ${JSON.stringify(agents)}`);
    }
    // The phone: a paired Telegram channel answered by the scripted agent.
    await api.put("/credentials/tg-bot", { secret: BOT.token });
    const channel = (await api.post("/channels", { kind: "telegram", name: "phone", bot_token_ref: "tg-bot", default_agent: "scripted" })).body;
    const code = (await api.post(`/channels/${channel.id}/pairing-code`)).body.code as string;
    tg.userSays({ chatId: OWNER.id, from: OWNER, text: code });
    await within(60_000, tg.waitFor((f) => f.chat(OWNER.id).some((m) => m.from === "bot" && m.text.startsWith("Paired."))), "pairing");

    console.log(`soak: ${MINUTES} min, a sample every ${SAMPLE_MS / 1000} s, floor = the first ${(FLOOR_MS / 60_000).toFixed(1)} min${MINUTES < 30 ? " (scaled down: a third of a run shorter than 30 min)" : ""}; daemon pid ${child.pid}`);
    const counts: Counts = {};
    const t0 = Date.now();
    const queueLoop = queueEdits(d, counts, stop.signal, 1_000);
    const live: string[] = [];
    const loops = [
      agentTurns(d, "claude_code", counts, stop.signal, 1_000),
      agentTurns(d, "codex", counts, stop.signal, 1_000),
      queueLoop,
      watchers(d, counts, stop.signal, 500, () => live),
      searches(d, counts, stop.signal, 2_000),
      phoneChat(d, tg, counts, stop.signal, 2_000),
    ];

    const samples: Sample[] = [];
    const header = ["min", ...METRICS, "turns claude/codex", "queue", "phone"];
    console.log(header.join("  "));
    const sample = async () => {
      const stats = (await api.get("/system/stats")).body as SystemStatsOut;
      const atMs = Date.now() - t0;
      // The watchers' targets: whatever conversations exist now.
      const list = (await api.get("/chat/conversations?limit=20")).body.conversations as { id: string }[];
      live.splice(0, live.length, ...list.map((c) => c.id));
      const values = figures(stats, home);
      samples.push({ atMs, values });
      const c = (k: string) => `${counts[k]?.done ?? 0}${counts[k]?.failed ? `(${counts[k]!.failed}!)` : ""}`;
      console.log(
        [(atMs / 60_000).toFixed(1), ...METRICS.map((m) => show(m, values[m])), `${c("claude_code")}/${c("codex")}`, c("queue-edits"), c("telegram")].join("  "),
      );
    };
    await sample();
    while (Date.now() - t0 < RUN_MS) {
      await new Promise((r) => setTimeout(r, Math.min(SAMPLE_MS, RUN_MS - (Date.now() - t0))));
      await sample();
    }
    stop.abort();
    await within(180_000, Promise.all(loops), "the loops to finish their last round");

    const rows = METRICS.map((m) => ({ ...growth(samples, m, FLOOR_MS), judged: (JUDGED as readonly string[]).includes(m) }));
    console.log(`\ngrowth after the floor (least-squares over the samples after minute ${(FLOOR_MS / 60_000).toFixed(1)}):`);
    console.log(
      table([
        ["figure", "floor mean", "floor spread", "last", "per hour", "% of floor / h", "rise", "verdict"],
        ...rows.map((r) => [
          r.metric,
          show(r.metric, r.floorMean),
          show(r.metric, r.floorSpread),
          show(r.metric, r.last),
          show(r.metric, r.perHour),
          Number.isFinite(r.percentPerHour) ? r.percentPerHour.toFixed(1) : "∞",
          show(r.metric, r.rise),
          !r.judged ? "(reported)" : r.steady ? "STEADY GROWTH" : "flat",
        ]),
      ]),
    );
    console.log("\nwork done (rounds ok / failed):");
    for (const [name, c] of Object.entries(counts)) console.log(`  ${name.padEnd(12)} ${c.done} ok, ${c.failed} failed${c.lastError ? ` (last: ${c.lastError})` : ""}`);
    const idle = Object.entries(counts).filter(([, c]) => c.done === 0).map(([n]) => n);
    const leaking = rows.filter((r) => r.judged && r.steady).map((r) => r.metric);
    console.log(
      `\nthe audit log: ${show("audit_rows", rows.find((r) => r.metric === "audit_rows")!.perHour)} rows an hour (a row per turn, kept with no retention: the DB file grows with it by design; the other tables are judged).`,
    );
    const ok = !leaking.length && !idle.length;
    console.log(
      `\nbar: no steady growth (a figure grows steadily when its slope after the floor is over ${DEFAULT_MAX_PERCENT_PER_HOUR} %/h of its floor AND rises more than the floor's own spread): ${verdict(ok)}${leaking.length ? ` — growing: ${leaking.join(", ")}` : ""}${idle.length ? ` — loops that never succeeded: ${idle.join(", ")}` : ""}`,
    );
    mkdirSync(join(process.cwd(), "bench/out"), { recursive: true });
    const out = join(process.cwd(), `bench/out/soak-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(out, JSON.stringify({ minutes: MINUTES, sampleMs: SAMPLE_MS, floorMs: FLOOR_MS, samples, growth: rows, counts }, null, 2));
    console.log(`samples: ${out}`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    stop.abort();
    child.child.kill("SIGTERM");
    await child.exited;
    await tg.close();
    await claude.close();
    await codex.close();
    await rm(home, { recursive: true, force: true });
  }
}

await main();
