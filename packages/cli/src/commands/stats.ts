import { ROUTES, type SystemStatsOut } from "@coffer/protocol";
import type { Command } from "commander";
import type { DaemonClient } from "../client.js";
import { print, printJson } from "../output.js";

/** `coffer stats`: what the daemon holds now (GET /system/stats). */
export function registerStats(program: Command, client: () => DaemonClient): void {
  program
    .command("stats")
    .description("what the daemon holds: warm agent processes and their memory, turns running, stream listeners, database and attachments size")
    .option("--json", "print JSON")
    .action(async (opts: { json?: boolean }) => {
      const stats = await client().call(ROUTES.systemStats);
      if (opts.json) return printJson(stats);
      print(formatStats(stats, Date.now()));
    });
}

export function formatStats(s: SystemStatsOut, now: number): string {
  const own = s.warm_processes.filter((p) => !p.shared).length;
  const lines = [
    `warm agent processes  ${own} of ${s.warm_cap} (COFFER_MAX_WARM_AGENTS)${s.warm_processes.length > own ? ` + ${s.warm_processes.length - own} shared` : ""}, ${mib(s.warm_rss_bytes)} resident`,
  ];
  if (s.warm_processes.length) {
    lines.push(`  ${"pid".padEnd(8)} ${"agent".padEnd(12)} ${"conversation".padEnd(34)} ${"rss".padStart(10)} ${"with tools".padStart(10)}  state`);
    for (const p of s.warm_processes) {
      const state = p.busy ? "running" : p.idle_since !== null ? `idle ${duration(now - p.idle_since)}` : "idle";
      const conversation = p.shared ? "(shared by all)" : (p.conversation_id ?? "(pre-warmed draft)");
      lines.push(
        `  ${String(p.pid).padEnd(8)} ${p.agent_key.padEnd(12)} ${conversation.padEnd(34)} ${mib(p.rss_bytes).padStart(10)} ${mib(p.group_rss_bytes).padStart(10)}  ${state}`,
      );
    }
  }
  lines.push(`turns running         ${s.turns_running}`);
  lines.push(`stream listeners      ${s.bus_subscribers} on ${s.buses} conversation bus${s.buses === 1 ? "" : "es"}`);
  lines.push(`database              ${mib(s.db.total_bytes)} (file ${mib(s.db.file_bytes)}, WAL ${mib(s.db.wal_bytes)})`);
  const a = s.attachments;
  lines.push(`attachments           ${a.count} upload${a.count === 1 ? "" : "s"} in ${a.files} file${a.files === 1 ? "" : "s"}, ${mib(a.bytes)}`);
  lines.push(`daemon                ${mib(s.daemon.rss_bytes)} resident, heap ${mib(s.daemon.heap_used_bytes)}, ${s.daemon.open_fds ?? "?"} open files`);
  return `${lines.join("\n")}\n`;
}

function mib(bytes: number | null): string {
  return bytes === null ? "?" : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 120 ? `${s} s` : `${Math.round(s / 60)} min`;
}
