/**
 * Orphan safety: `kill -9` the daemon while the REAL `claude` (against the fake Anthropic
 * server) runs a long Bash tool (`sleep`). Both outlive the daemon — re-parented to init,
 * the agent would carry on with full permissions. The next daemon on the same data dir
 * reaps them before it listens: neither the agent nor its tool child is alive afterwards.
 */
import { randomInt } from "node:crypto";
import { describe, expect } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { ApiClient, SseSubscription } from "../support/http-client.js";
import { spawnDaemon, type DaemonProcess } from "../support/spawn-daemon.js";
import { alive, cmdline, ledgerRows, orphanRig, pids, until } from "./orphan-rig.js";

const SPEC = "016-speed-footprint";

/** Processes whose command line is exactly `argv` (the tool's unique `sleep` argument). */
function pidsWithArgs(argv: readonly string[]): number[] {
  return pids().filter((pid) => cmdline(pid).join("\0") === argv.join("\0") && alive(pid));
}

describe("orphan reaping (real claude, kill -9 mid-tool)", () => {
  const s = orphanRig("claude_code");

  acceptance(
    SPEC,
    "after kill -9 of the daemon mid-tool, the next start reaps the agent and its tool child",
    async () => {
      const { home, rig, leftovers } = s;
      const spawn = () => spawnDaemon(home, { ...rig.env, COFFER_LOG_LEVEL: "error" }, { hermetic: true });
      let d: DaemonProcess = await spawn();
      let restarted: DaemonProcess | null = null;
      try {
        const api = new ApiClient(d.url, d.token);
        const id = (await api.post("/chat/conversations", { agent_key: "claude_code", agent_config: { model: "claude-sonnet-4-5" } })).body.id as string;
        const sub = await SseSubscription.open(d.url, d.token, `/chat/conversations/${id}/events`);
        // A duration no other process on the machine uses: how the tool child is found in /proc.
        // (Claude Code refuses a standalone long `sleep`, so it follows another command.)
        const sleepArgs = ["sleep", `300.${randomInt(100_000, 999_999)}`];
        expect((await api.post(`/chat/conversations/${id}/messages`, { text: `RUN: echo started && ${sleepArgs.join(" ")}` })).status).toBe(202);
        await sub.waitFor((e) => e.type === "tool_call");
        const [tool] = await until("the tool's sleep", () => {
          const ended = sub.events.find((e: any) => (e.event ?? e).type === "tool_result");
          if (ended) throw new Error(`the tool ended instead of running: ${JSON.stringify(ended)}`);
          const found = pidsWithArgs(sleepArgs);
          return found.length ? found : null;
        });
        const [agent] = ledgerRows(home).filter((r) => r.agent_key === "claude_code");
        expect(agent, "the agent process is in the ledger").toBeDefined();
        leftovers.push(tool!, agent!.pid);
        expect(alive(agent!.pid)).toBe(true);

        d.child.kill("SIGKILL");
        expect(await d.exited).toBe("SIGKILL");
        await sub.waitForEnd();
        // The daemon is gone; its agent and the agent's tool are not (the hazard).
        expect(alive(agent!.pid)).toBe(true);
        expect(alive(tool!)).toBe(true);

        restarted = await spawn(); // listening = the reaper has finished
        expect(alive(agent!.pid), "the orphaned claude").toBe(false);
        expect(alive(tool!), "its sleep").toBe(false);
        expect(pidsWithArgs(sleepArgs)).toEqual([]);
        expect(ledgerRows(home)).toEqual([]);
        // The conversation goes on: its failed turn is recorded, the next one runs.
        const api2 = new ApiClient(restarted.url, restarted.token);
        const messages = (await api2.get(`/chat/conversations/${id}/messages`)).body.messages as any[];
        expect(messages.at(-1)).toMatchObject({ status: "failed", error: { code: "daemon_restart" } });
      } finally {
        (restarted ?? d).child.kill("SIGTERM");
        await (restarted ?? d).exited;
      }
    },
    180_000,
  );
});
