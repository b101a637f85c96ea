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
import { readdirSync, readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { makeAgentRig, type AgentRig } from "../fakes/agent-rig.js";
import { acceptance } from "../support/acceptance.js";
import { ApiClient, SseSubscription } from "../support/http-client.js";
import { spawnDaemon, type DaemonProcess } from "../support/spawn-daemon.js";
import { makeHome } from "../support/test-daemon.js";

function stat(pid: number): { ppid: number; state: string } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0]!, ppid: Number(fields[1]) };
  } catch {
    return null;
  }
}

/** Alive = listed in /proc and not a zombie. */
function alive(pid: number): boolean {
  const s = stat(pid);
  return s !== null && s.state !== "Z" && s.state !== "X";
}

function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}

const pids = () => readdirSync("/proc").filter((n) => /^\d+$/.test(n)).map(Number);

/** Waits for a condition the OS publishes only in /proc, checking every 20 ms. */
async function until<T>(what: string, probe: () => T | null | undefined | false, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const got = probe();
    if (got) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function ledgerRows(home: string): { pid: number; agent_key: string }[] {
  const db = new Database(join(home, "coffer.db"), { readonly: true });
  try {
    return db.prepare("SELECT pid, agent_key FROM agent_processes").all() as { pid: number; agent_key: string }[];
  } finally {
    db.close();
  }
}

describe("orphan reaping (real codex, kill -9 mid-tool)", () => {
  let home: string;
  let rig: AgentRig<"codex">;
  const leftovers: number[] = [];
  beforeAll(async () => {
    home = await makeHome();
    rig = await makeAgentRig("codex");
  }, 30_000);
  afterAll(async () => {
    for (const pid of leftovers) if (alive(pid)) process.kill(pid, "SIGKILL");
    await rig?.close();
    await rm(home, { recursive: true, force: true });
  });

  acceptance(
    "024-proof-holes",
    "after kill -9 of the daemon while Codex's app-server runs, the next start reaps the app-server",
    async () => {
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
