/**
 * No LLM credential is ever written to the database or the logs in
 * plaintext. A known secret is planted through the API and then used every way the daemon
 * uses one — turns, list-models, test-connection (ok and rejected, with a provider that
 * echoes the key back), coffer__ask — with the log at debug level. Then every file in the
 * data dir (the DB, its WAL and shm, the log) is scanned for the secret in plaintext, hex and
 * base64: zero hits.
 *
 * Issue 11, finding 3: a "write-only" credential must not come back out through an upstream
 * MCP server's error text either. A real daemon child process runs a stdio server that prints
 * its API key to stderr (plain, base64, base64url, hex, URL-encoded) and exits, and an HTTP
 * server that echoes the key header in its error; the REST listing, an error envelope, the
 * gateway's answer and every daemon log line (the child's stderr, across retries) show
 * `[credential:<ref>]` and none of the secret's forms.
 *
 * What an agent says (issue 21, W7) is scanned in agent-output-scrub.test.ts — the live stream,
 * the stored rows and what the fake Telegram received — and fuzzed in
 * ../reliability/agent-output-fuzz.test.ts.
 */
import { randomBytes } from "node:crypto";
import { appendFileSync, readdirSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { consoleLogger } from "../../src/infrastructure/system/console-logger.js";
import { FakeAnthropicLlm } from "../fakes/llm-fake-anthropic.js";
import { FakeOllamaLlm } from "../fakes/llm-fake-ollama.js";
import { FakeOpenAiLlm } from "../fakes/llm-fake-openai.js";
import type { FakeLlmServer } from "../fakes/llm-fake-server.js";
import { gatewayClient, stdioServer, textOf } from "../fixtures/mcp/gateway-client.js";
import { ApiClient } from "../support/http-client.js";
import { spawnDaemon, type DaemonProcess } from "../support/spawn-daemon.js";
import { makeHome, startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const SECRET = `sk-planted-${randomBytes(16).toString("hex")}`;
const NEEDLES = [SECRET, Buffer.from(SECRET).toString("hex"), Buffer.from(SECRET).toString("base64")].map((s) => Buffer.from(s));

interface Scan {
  files: number;
  bytes: number;
  hits: string[];
}

function scan(dir: string, into: Scan = { files: 0, bytes: 0, hits: [] }): Scan {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const entry = statSync(path);
    if (entry.isDirectory()) {
      scan(path, into);
      continue;
    }
    if (!entry.isFile()) continue; // daemon.sock: a socket holds no bytes at rest
    const bytes = readFileSync(path);
    into.files += 1;
    into.bytes += bytes.length;
    for (const needle of NEEDLES) if (bytes.includes(needle)) into.hits.push(`${name}: ${needle.toString().slice(0, 12)}…`);
  }
  return into;
}

let t: TestDaemon | null = null;
const fakes: FakeLlmServer[] = [];
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  await t?.close();
});

test("a planted secret never reaches the DB, its WAL or the debug log in plaintext", { timeout: 60_000 }, async () => {
  const home = await makeHome();
  const log = join(home, "daemon.log");
  t = await startTestDaemon({ home, logger: consoleLogger("debug", (line) => appendFileSync(log, line)) });
  const api = t.api;

  const anthropic = await FakeAnthropicLlm.start({ apiKey: SECRET, models: ["m"], reply: (c) => (c.toolResults.length ? { text: "done" } : { toolCall: { name: "coffer__recall", input: { query: "x" } } }) });
  const openai = await FakeOpenAiLlm.start({ apiKey: SECRET, models: ["m"] });
  const ollama = await FakeOllamaLlm.start({ apiKey: SECRET, models: ["m"] });
  // Rejects the planted key and, like the real API, repeats it in its 401 body.
  const echoing = await FakeOpenAiLlm.start({ apiKey: "some-other-key", models: ["m"] });
  fakes.push(anthropic, openai, ollama, echoing);

  expect((await api.put("/credentials/planted", { secret: SECRET })).status).toBe(200);
  const listed = await api.get("/credentials");
  expect(JSON.stringify(listed.body)).not.toContain(SECRET);
  expect((await api.get("/credentials/planted")).status).toBe(404); // there is no read-back route

  const targets = [
    { wire: "anthropic", base_url: anthropic.baseUrl },
    { wire: "openai", base_url: openai.baseUrl },
    { wire: "ollama", base_url: ollama.baseUrl },
  ];
  for (const [i, target] of targets.entries()) {
    const created = await api.post("/connections", { name: `c${i}`, model: "m", credential_ref: "planted", internal_default: i === 0, ...target });
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain(SECRET);
    expect((await api.post("/models/list-models", { ...target, credential_ref: "planted" })).body.models).toEqual(["m"]);
    expect((await api.post("/models/test-connection", { ...target, model: "m", credential_ref: "planted" })).body.ok).toBe(true);
  }
  const rejected = await api.post("/models/test-connection", { wire: "openai", base_url: echoing.baseUrl, model: "m", credential_ref: "planted" });
  expect(rejected.body).toMatchObject({ ok: false, detail: { kind: "auth" } });
  const rejectedList = await api.post("/models/list-models", { wire: "openai", base_url: echoing.baseUrl, credential_ref: "planted" });
  expect(JSON.stringify([rejected.body, rejectedList.body])).not.toContain(SECRET);
  // The key really was sent: each fake saw it (so the scan below is not vacuous).
  expect(echoing.requests.some((r) => r.headers.authorization === `Bearer ${SECRET}`)).toBe(true);

  const asked = await t.daemon.builtinTools.get("coffer__ask")!.run({ query: "what do I know?" }, { caller: "test" });
  expect(asked).toMatchObject({ ok: true, value: { answer: "done" } });
  await api.patch(`/connections/${(await api.get("/connections")).body.connections[1].id}`, { base_url: echoing.baseUrl, internal_default: true });
  const failedAsk = await t.daemon.builtinTools.get("coffer__ask")!.run({ query: "again?" }, { caller: "test" });
  expect(failedAsk.ok).toBe(false);
  expect(JSON.stringify(failedAsk)).not.toContain(SECRET);

  // Turns run with the secret configured (managed agents never need it; nothing of it is written).
  const id = await t.conversation();
  const sub = await t.subscribe(id);
  await api.post(`/chat/conversations/${id}/messages`, { text: "hello with credentials configured" });
  await sub.waitFor((e) => e.type === "turn_done");
  sub.close();

  // The key file exists, owner-only.
  expect(statSync(join(home, "credentials.key")).mode & 0o777).toBe(0o600);
  const live = scan(home);
  expect(readdirSync(home)).toEqual(expect.arrayContaining(["coffer.db", "coffer.db-wal", "daemon.log"]));
  expect(readFileSync(log, "utf8")).toMatch(/"level":"debug".*test-connection/);
  await t.stop();
  const closed = scan(home);
  console.log(`secret scan: live ${live.files} files / ${live.bytes} bytes / ${live.hits.length} hits; after close ${closed.files} files / ${closed.bytes} bytes / ${closed.hits.length} hits`);
  expect(live.hits).toEqual([]);
  expect(closed.hits).toEqual([]);
  await rm(home, { recursive: true, force: true });
  t = null;
});

test("the scanner finds a planted secret when one is there (control)", async () => {
  const dir = await mkdtemp(join(tmpdir(), "coffer-scan-control-"));
  await writeFile(join(dir, "leak.log"), `{"msg":"oops","key":"${SECRET}"}\n`);
  await writeFile(join(dir, "b64.bin"), Buffer.from(SECRET).toString("base64"));
  expect(scan(dir).hits).toHaveLength(2);
  await rm(dir, { recursive: true, force: true });
});

/** A secret and every form it is commonly leaked in. */
function forms(secret: string): string[] {
  const bytes = Buffer.from(secret);
  return [secret, bytes.toString("base64"), bytes.toString("base64url"), bytes.toString("hex"), encodeURIComponent(secret)];
}

/** Polls until `probe` returns something truthy; bounded by a deadline. */
async function until<T>(what: string, probe: () => Promise<T | null | false> | T | null | false, deadlineMs = 15_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test("finding 3: upstream MCP stderr and HTTP error text never carry a credential out (REST, gateway, log)", { timeout: 60_000 }, async () => {
  // Characters that URL-encoding and base64url change, so every form differs from the plain one.
  const stdioKey = `sk-stdio/${randomBytes(12).toString("hex")}+?&=`;
  const httpKey = `hk-http/${randomBytes(12).toString("hex")}+~`;
  const needles = [...forms(stdioKey), ...forms(httpKey)];
  const leaks = (text: string) => needles.filter((n) => text.includes(n));

  // An HTTP upstream that refuses the key and quotes the header back, as careless servers do.
  const echo = http.createServer((req, res) => void res.writeHead(403).end(`rejected x-api-key "${req.headers["x-api-key"]}"`));
  await new Promise<void>((r) => echo.listen(0, "127.0.0.1", r));
  const home = await makeHome();
  let d: DaemonProcess | null = null;
  try {
    d = await spawnDaemon(home, { COFFER_LOG_LEVEL: "debug" });
    const daemon = d;
    const api = new ApiClient(daemon.url, daemon.token);
    expect((await api.put("/credentials/stdio-key", { secret: stdioKey })).status).toBe(200);
    expect((await api.put("/credentials/http-key", { secret: httpKey })).status).toBe(200);
    const stdio = stdioServer("leaky", "leaky-server.mjs", { env: { API_KEY: { credential: "stdio-key" } } });
    expect((await api.post("/mcp/servers", stdio)).status).toBe(201);
    const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/mcp`;
    expect((await api.post("/mcp/servers", { name: "echoing", transport: "http", url, headers: { "X-Api-Key": { credential: "http-key" } } })).status).toBe(201);

    // Both fail with the echo in their error text, scrubbed; then the log shows a retry of each.
    const listed = await until("both servers failed with their echo", async () => {
      const res = await api.get("/mcp/servers");
      const byName = new Map((res.body.servers as any[]).map((s) => [s.name, s]));
      const ok = byName.get("leaky")?.error?.includes("API_KEY=") && byName.get("echoing")?.error?.includes("rejected x-api-key");
      return ok ? res : null;
    });
    const text = JSON.stringify(listed.body);
    expect(text).toContain("API_KEY=[credential:stdio-key]");
    expect(text).toContain("base64=[credential:stdio-key] base64url=[credential:stdio-key]");
    expect(text).toContain("hex=[credential:stdio-key] url=[credential:stdio-key]");
    expect(text).toContain('rejected x-api-key \\"[credential:http-key]\\"');
    expect(leaks(text)).toEqual([]);
    await until("a retry of each failed server in the log", () => {
      const failures = daemon.stderr().split("\n").filter((l) => l.includes("mcp upstream failed"));
      return failures.filter((l) => l.includes('"server":"leaky"')).length >= 2 && failures.filter((l) => l.includes('"server":"echoing"')).length >= 2;
    });

    // An error envelope that quotes what the client sent, and the gateway's answer to an agent.
    const missing = await api.get(`/memory/${encodeURIComponent(stdioKey)}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toContain("[credential:stdio-key]");
    expect(leaks(JSON.stringify(missing.body))).toEqual([]);
    const client = await gatewayClient(daemon.url, daemon.token);
    const answer = textOf(await client.callTool({ name: "leaky__anything", arguments: {} }));
    await client.close();
    expect(answer).toContain("[credential:stdio-key]");
    expect(leaks(answer)).toEqual([]);

    daemon.child.kill("SIGTERM");
    expect(await daemon.exited).toBe(0);
    const log = daemon.stderr();
    expect(log).toContain("[credential:stdio-key]");
    expect(log).toContain("[credential:http-key]");
    expect(leaks(log)).toEqual([]);
    d = null;
  } finally {
    if (d) {
      d.child.kill("SIGKILL");
      await d.exited;
    }
    echo.closeAllConnections();
    await new Promise<void>((r) => echo.close(() => r()));
    await rm(home, { recursive: true, force: true });
  }
});
