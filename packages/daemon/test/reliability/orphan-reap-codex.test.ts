/**
 * Orphan safety for Codex: Coffer drives it through one long-lived `codex app-server`, and that
 * process (with the tools it runs) must be in the agent process ledger like every Claude
 * process. `kill -9` the daemon while the REAL codex (against the fake Responses server) runs a
 * long shell command (`sleep`); the next daemon on the same data dir reaps what was left — the
 * app-server and its tool — before it listens.
 * The app-server is found through /proc (the daemon's child running `codex app-server`), not
 * through the ledger, so the test also catches an app-server that was never written down.
 */
import { randomInt } from "node:crypto";
import { describe, expect } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { ApiClient, SseSubscription } from "../support/http-client.js";
import { spawnDaemon, type DaemonProcess } from "../support/spawn-daemon.js";
import { alive, cmdline, ledgerRows, orphanRig, pids, stat, until } from "./orphan-rig.js";

describe("orphan reaping (real codex, kill -9 mid-tool)", () => {
  const s = orphanRig("codex");

  acceptance(
    "024-proof-holes",
    "after kill -9 of the daemon while Codex's app-server runs, the next start reaps the app-server",
    async () => {
      const { home, rig, leftovers } = s;
      const spawn = () => spawnDaemon(home, { ...rig.env, COFFER_LOG_LEVEL: "error" }, { hermetic: true });
      const d: DaemonProcess = await spawn();
      let restarted: DaemonProcess | null = null;
      try {
        const api = new ApiClient(d.url, d.token);
        const id = (await api.post("/chat/conversations", { agent_key: "codex", agent_config: {} })).body.id as string;
        const sub = await SseSubscription.open(d.url, d.token, `/chat/conversations/${id}/events`);
        const sleepArgs = ["sleep", `300.${randomInt(100_000, 999_999)}`];
        expect((await api.post(`/chat/conversations/${id}/messages`, { text: `USE_TOOL ${sleepArgs.join(" ")}` })).status).toBe(202);
        await sub.waitFor((e) => e.type === "tool_call");
        const want = sleepArgs.join("\0");
        const [tool] = await until("the tool's sleep", () => {
          const found = pids().filter((p) => cmdline(p).join("\0").endsWith(want) && cmdline(p)[0] === "sleep" && alive(p));
          return found.length ? found : null;
        });
        const appServer = await until("codex app-server, the daemon's child", () =>
          pids().find((p) => stat(p)?.ppid === d.pid && cmdline(p).includes("app-server") && alive(p)),
        );
        leftovers.push(tool!, appServer);
        // A healthy app-server quits when its stdin closes with the daemon (and takes its tool
        // along). The reaper exists for the one that does not notice — busy or wedged: stopping
        // it here stands in for that, so it is still there when the next daemon starts.
        process.kill(appServer, "SIGSTOP");

        d.child.kill("SIGKILL");
        expect(await d.exited).toBe("SIGKILL");
        await sub.waitForEnd();
        // The daemon is gone; its app-server and the tool Codex started are not (the hazard).
        expect(alive(appServer)).toBe(true);
        expect(alive(tool!)).toBe(true);

        restarted = await spawn(); // listening = the reaper has finished
        expect(alive(appServer), "the orphaned codex app-server").toBe(false);
        expect(alive(tool!), "its sleep").toBe(false);
        expect(ledgerRows(home).filter((r) => r.pid === appServer)).toEqual([]);
      } finally {
        (restarted ?? d).child.kill("SIGTERM");
        await (restarted ?? d).exited;
      }
    },
    180_000,
  );
});
