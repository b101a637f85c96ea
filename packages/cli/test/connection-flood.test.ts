/**
 * Issue 21, W3: another local user opens thousands of connections that never send a request.
 * The daemon's descriptors stay bounded (the oldest connection without a request is evicted),
 * the CLI keeps working over its private Unix socket meanwhile, /health answers over TCP once the
 * flood is cut, and a 401 closes its connection. A real daemon process, real sockets, 127.0.0.1 only.
 */
import { spawn } from "node:child_process";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { acceptance } from "../../daemon/test/support/acceptance.js";
import { spawnDaemon, type DaemonProcess } from "../../daemon/test/support/spawn-daemon.js";
import { cofferAtHome } from "./support/run-cli.js";

const SPEC = "021-hardening";
const FLOOD = 3000;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function daemon(): Promise<{ d: DaemonProcess; home: string }> {
  const home = mkdtempSync(join(tmpdir(), "coffer-flood-"));
  const d = await spawnDaemon(home);
  cleanups.push(async () => {
    d.child.kill("SIGTERM");
    await d.exited;
    rmSync(home, { recursive: true, force: true });
  });
  return { d, home };
}

const openFds = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

/** One connection that sends nothing; resolves once connected (or refused/reset: counted as cut). */
function halfOpen(port: number, into: net.Socket[]): Promise<void> {
  return new Promise((resolve) => {
    const s = net.connect({ host: "127.0.0.1", port });
    s.on("error", () => resolve());
    s.on("close", () => resolve());
    s.once("connect", () => {
      into.push(s);
      resolve();
    });
  });
}

async function flood(port: number, count: number): Promise<net.Socket[]> {
  const sockets: net.Socket[] = [];
  cleanups.push(() => sockets.forEach((s) => s.destroy()));
  for (let i = 0; i < count; i += 200) await Promise.all(Array.from({ length: Math.min(200, count - i) }, () => halfOpen(port, sockets)));
  return sockets;
}

describe("connection exhaustion", { timeout: 120_000 }, () => {
  acceptance(SPEC, "thousands of half-open connections neither exhaust the daemon's descriptors nor keep /health from answering once they are cut", async () => {
    const { d, home } = await daemon();
    const before = openFds(d.pid);
    const sockets = await flood(d.port, FLOOD);
    // Bounded: the cap (COFFER_MAX_CONNECTIONS, 256 by default) plus the daemon's own files, not the flood.
    expect(openFds(d.pid) - before).toBeLessThan(400);

    // The CLI still works during the attack, through the socket (the audit names the transport).
    const made = await cofferAtHome(home, ["chat", "new", "--agent", "scripted", "--json"]);
    expect(made.stderr).toBe("");
    const id = JSON.parse(made.stdout).id as string;
    const audit = await fetch(`${d.url}/api/v1/audit?action=conversation_created&limit=1`, { headers: { authorization: `Bearer ${d.token}` } });
    expect(((await audit.json()) as any).entries[0]).toMatchObject({ details: { conversation_id: id }, principal: { kind: "token", transport: "socket" } });

    sockets.forEach((s) => s.destroy());
    const health = await fetch(`${d.url}/api/v1/health`, { headers: { authorization: `Bearer ${d.token}` } });
    expect(health.status).toBe(200);
  });

  test("a 401 closes its connection", async () => {
    const { d } = await daemon();
    const socket = net.connect({ host: "127.0.0.1", port: d.port });
    cleanups.push(() => socket.destroy());
    let answer = "";
    socket.setEncoding("utf8").on("data", (c: string) => (answer += c));
    const closed = new Promise<void>((resolve) => socket.once("end", () => resolve()));
    socket.write(`GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1:${d.port}\r\nAuthorization: Bearer wrong\r\n\r\n`);
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(answer.toLowerCase()).toContain("connection: close");
  });

  acceptance(SPEC, "the CLI reaches the daemon over a 0600 Unix socket that another user cannot open", async () => {
    const { home } = await daemon();
    const sock = join(home, "daemon.sock");
    const st = lstatSync(sock);
    expect(st.isSocket()).toBe(true);
    expect(st.mode & 0o777).toBe(0o600);
    // Another user (nobody, uid 65534) cannot connect: refused by the file system, not the daemon.
    const probe = `require("net").connect(${JSON.stringify(sock)}).on("connect",()=>{console.log("connected");process.exit(0)}).on("error",(e)=>{console.log(e.code);process.exit(0)})`;
    const other = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, ["-e", probe], { uid: 65534, gid: 65534 });
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (c: string) => (out += c));
      child.on("close", () => resolve(out.trim()));
    });
    expect(other).toBe("EACCES");
    // The owner's CLI works with no TCP at all: daemon.json names a dead port, the socket answers.
    const info = join(home, "daemon.json");
    writeFileSync(info, JSON.stringify({ ...JSON.parse(readFileSync(info, "utf8")), port: 1, url: "http://127.0.0.1:1" }));
    const agents = await cofferAtHome(home, ["agents"]);
    expect(agents.code).toBe(0);
  });
});
