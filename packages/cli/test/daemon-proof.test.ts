/**
 * Issue 11, finding 1: port squatting. After the daemon is gone (daemon.json left behind, as
 * a kill -9 leaves it), another process binds the old port. The CLI must not send it the
 * token or a secret; it must not trust a process that relays the proof to the real daemon
 * on another port either. Real daemon, real HTTP, the built CLI as separate processes.
 */
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { proofMessage } from "@coffer/protocol";
import { afterEach, describe, expect, test } from "vitest";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";

const CLI = fileURLToPath(new URL("../dist/main.js", import.meta.url));

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An HTTP server on `port` that records every request and answers like a plausible daemon, or relays to `relayTo`. */
async function impostor(port: number, relayTo?: number): Promise<{ seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (c: string) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      if (relayTo === undefined) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ mac: "A".repeat(43), conversations: [], next_cursor: null }));
        return;
      }
      const up = http.request({ host: "127.0.0.1", port: relayTo, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${relayTo}` } }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      up.on("error", () => res.writeHead(502).end());
      up.end(body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return { seen, close: () => new Promise((r) => server.close(() => r())) };
}

function coffer(home: string, args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, COFFER_HOME: home };
    delete env.COFFER_URL;
    delete env.COFFER_TOKEN;
    const child = spawn(process.execPath, [CLI, ...args], { env });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.stdin.end(stdin);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * A daemon that died as kill -9 leaves it (its daemon.json behind), its port taken by an
 * impostor; `whileAlive` runs against the real daemon first.
 */
async function squattedDaemon(whileAlive?: (home: string) => Promise<void>) {
  const t = await daemon();
  const { port, token } = t.daemon;
  await whileAlive?.(t.home);
  const info = readFileSync(join(t.home, "daemon.json"), "utf8");
  await t.stop();
  writeFileSync(join(t.home, "daemon.json"), info);
  const squatter = await impostor(port);
  cleanups.push(() => squatter.close());
  return { port, token, home: t.home, squatter };
}

async function daemon(home?: string): Promise<TestDaemon> {
  const t = await startTestDaemon(home ? { home } : {});
  cleanups.push(() => t.close());
  return t;
}

/** Nothing that authenticates, and no secret, in any request the impostor saw. */
function expectNothingLeaked(seen: Seen[], ...secrets: string[]): void {
  expect(seen.length).toBeGreaterThan(0);
  for (const r of seen) {
    expect(r.headers.authorization).toBeUndefined();
    expect(r.headers["x-coffer-token"]).toBeUndefined();
    const all = `${r.url}\n${JSON.stringify(r.headers)}\n${r.body}`;
    for (const s of secrets) expect(all).not.toContain(s);
  }
}

describe("the CLI makes the daemon prove itself before the token travels", { timeout: 60_000 }, () => {
  test("a squatter on a dead daemon's port (daemon.json left behind) gets no token and no secret", async () => {
    const { port, token, home, squatter } = await squattedDaemon(async (home) => {
      expect((await coffer(home, ["chat", "ls", "--json"])).code).toBe(0); // the real daemon passes
    });

    const ls = await coffer(home, ["chat", "ls"]);
    expect(ls.code).toBe(11);
    expect(ls.stderr).toContain(`http://127.0.0.1:${port}`);
    expect(ls.stderr).toContain("the token was not sent");
    expect(ls.stderr).toContain("DAEMON_NOT_VERIFIED");
    const secret = "sk-squatted-secret-0123456789";
    const set = await coffer(home, ["cred", "set", "openai", ], `${secret}\n`);
    expect(set.code).toBe(11);
    expect((await coffer(home, ["--token", token, "audit"])).code).toBe(11);
    expectNothingLeaked(squatter.seen, token, secret);
    expect(squatter.seen.every((r) => r.url === "/api/v1/auth/proof")).toBe(true);
  });

  test("an impostor relaying the proof to the real daemon on another port is refused", async () => {
    const first = await daemon();
    const home = first.home;
    const stalePort = first.daemon.port;
    await first.stop();
    const real = await daemon(home); // the owner's daemon, restarted on another port
    expect(real.daemon.port).not.toBe(stalePort);
    const relay = await impostor(stalePort, real.daemon.port);
    cleanups.push(() => relay.close());
    writeFileSync(join(home, "daemon.json"), JSON.stringify({ pid: 1, port: stalePort, url: `http://127.0.0.1:${stalePort}` }));
    // The TCP path: with the data dir's socket the CLI would never dial the relay (issue 21, W3);
    // without it (a daemon that could not bind one), the proof is what refuses the relay.
    rmSync(join(home, "daemon.sock"));

    const secret = "sk-relayed-secret-0123456789";
    const set = await coffer(home, ["cred", "set", "openai"], `${secret}\n`);
    expect(set.code).toBe(11);
    expect(set.stderr).toContain("did not prove");
    expectNothingLeaked(relay.seen, real.daemon.token, secret);
    // The relay did reach the real daemon, which answered for its own port: the binding is what refused it.
    expect(relay.seen.map((r) => r.url)).toEqual(["/api/v1/auth/proof"]);
    // Straight to the real daemon, the same CLI works.
    expect((await coffer(home, ["--url", real.daemon.url, "chat", "ls"])).code).toBe(0);
  });
});

describe("proof, sessions and login codes over HTTP", { timeout: 60_000 }, () => {
  const post = (url: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${url}/api/v1${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) }).then(
      async (r) => ({ status: r.status, body: (await r.json()) as any }),
    );
  const mac = (key: string, nonce: string, port: number) => createHmac("sha256", key).update(proofMessage(nonce, port)).digest("base64url");
  const nonce = "n".repeat(22) + Math.random().toString(36).slice(2).replace(/[^a-z0-9]/g, "");

  test("the daemon MACs the nonce and its own port; a bad nonce is a clear 422", async () => {
    const t = await daemon();
    const proof = await post(t.daemon.url, "/auth/proof", { nonce });
    expect(proof).toEqual({ status: 200, body: { mac: mac(t.daemon.token, nonce, t.daemon.port) } });
    for (const bad of [{}, { nonce: "short" }, { nonce: `${"a".repeat(30)}+/=` }, { nonce: 42 }]) {
      const res = await post(t.daemon.url, "/auth/proof", bad);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe("VALIDATION_FAILED");
    }
    expect((await post(t.daemon.url, "/auth/proof", { nonce, session_id: "nosuchsession" })).body.error.code).toBe("SESSION_ENDED");
  });

  test("sessions authenticate, prove, and die with the daemon that issued them", async () => {
    const t = await daemon();
    const session = await post(t.daemon.url, "/auth/session", {}, { authorization: `Bearer ${t.daemon.token}` });
    expect(session.status).toBe(201);
    const { session_id, secret } = session.body;
    const bearer = { authorization: `Bearer ${session_id}.${secret}` };
    expect((await fetch(`${t.daemon.url}/api/v1/chat/agents`, { headers: bearer })).status).toBe(200);
    expect((await fetch(`${t.daemon.url}/api/v1/chat/agents`, { headers: { authorization: `Bearer ${session_id}.wrong` } })).status).toBe(401);
    expect((await post(t.daemon.url, "/auth/proof", { nonce, session_id })).body.mac).toBe(mac(secret, nonce, t.daemon.port));
    // A session cannot mint sessions: only the token or a login code can.
    expect((await post(t.daemon.url, "/auth/session", {}, bearer)).status).toBe(401);

    const home = t.home;
    await t.stop();
    const next = await daemon(home); // same data dir, same token, new process
    const dead = await fetch(`${next.daemon.url}/api/v1/chat/agents`, { headers: bearer });
    expect(dead.status).toBe(401);
    expect(((await dead.json()) as any).error.code).toBe("SESSION_ENDED");
    expect((await post(next.daemon.url, "/auth/proof", { nonce, session_id })).body.error.code).toBe("SESSION_ENDED");
    expect((await next.api.get("/chat/agents")).status).toBe(200); // the long-lived token still works
  });

  test("coffer open --print: a login code that works once, in the URL fragment", async () => {
    const t = await daemon();
    const open = await coffer(t.home, ["open", "--print"]);
    expect(open.code).toBe(0);
    const url = new URL(open.stdout.trim());
    expect(url.origin).toBe(t.daemon.url);
    expect(url.search).toBe("");
    const code = new URLSearchParams(url.hash.slice(1)).get("login")!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(open.stdout).not.toContain(t.daemon.token);
    const first = await post(t.daemon.url, "/auth/session", { login_code: code });
    expect(first.status).toBe(201);
    const again = await post(t.daemon.url, "/auth/session", { login_code: code });
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe("LOGIN_CODE_INVALID");
    expect((await post(t.daemon.url, "/auth/login-code", {})).status).toBe(401); // minting one needs the token
  });

  test("coffer open refuses a squatter before asking it for anything", async () => {
    const { home, token, squatter } = await squattedDaemon();
    const open = await coffer(home, ["open", "--print"]);
    expect(open.code).toBe(11);
    expect(open.stdout).toBe("");
    expectNothingLeaked(squatter.seen, token);
  });
});

describe("finding 6: the token stays out of logs", { timeout: 60_000 }, () => {
  /** `coffer start` on a fresh data dir; resolves with the banner once it names the data dir, then stops it. */
  function banner(args: string[]): Promise<{ stdout: string; token: string }> {
    const home = mkdtempSync(join(tmpdir(), "coffer-banner-"));
    cleanups.push(async () => rmSync(home, { recursive: true, force: true }));
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, "--home", home, "start", "--port", "0", ...args], {
        env: { ...process.env, COFFER_LOG_LEVEL: "silent" },
      });
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (c: string) => {
        stdout += c;
        if (stdout.includes("Data dir:")) child.kill("SIGTERM");
      });
      child.on("close", () => {
        try {
          resolve({ stdout, token: readFileSync(join(home, "token"), "utf8").trim() });
        } catch (err) {
          reject(err);
        }
      });
    });
  }

  test("the start banner prints the URL without the token unless --print-url asks", async () => {
    const plain = await banner([]);
    expect(plain.token.length).toBeGreaterThanOrEqual(32);
    expect(plain.stdout).toMatch(/Coffer is running at http:\/\/127\.0\.0\.1:\d+\. Open it with `coffer open`/);
    expect(plain.stdout).not.toContain(plain.token);
    expect(plain.stdout).not.toContain("token=");
    const asked = await banner(["--print-url"]);
    expect(asked.stdout).toContain(`/?token=${asked.token}`);
  });

  test("the README documents the flags, the exit status and the uncoverable case", () => {
    const readme = readFileSync(fileURLToPath(new URL("../../../README.md", import.meta.url)), "utf8");
    for (const needle of ["--print-url", "coffer open [--print]", "`coffer open --print`", "11 the process at the URL did not prove", "prefer `COFFER_TOKEN`", "The one case no scheme covers"]) {
      expect(readme).toContain(needle);
    }
  });
});
