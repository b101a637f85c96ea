/**
 * Bad input: 10,000 malformed or random requests over every route in the ROUTES table —
 * random methods, ids, query strings and bodies (invalid JSON, wrong types, huge strings,
 * bodies over 1 MB), missing or wrong tokens, foreign Host and Origin headers. The daemon
 * must never answer 5xx, must stay alive, and every error must be the envelope with a
 * SCREAMING_SNAKE code.
 */
import http from "node:http";
import { ROUTE_LIST } from "@coffer/protocol";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";
import { Fuzz } from "./fuzz-inputs.js";

const REQUESTS = 10_000;
const PARALLEL = 8;
const CODE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

interface Outcome {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: PARALLEL });

function send(method: string, path: string, headers: Record<string, string>, body: string | undefined, fresh = false): Promise<Outcome | "reset"> {
  // Frame every body (Node would send a GET/DELETE body unframed, which is no longer HTTP).
  if (body !== undefined) headers = { ...headers, "content-length": String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = http.request(`${t.daemon.url}${path}`, { method, headers, agent: fresh ? false : agent }, (res) => {
      const contentType = String(res.headers["content-type"] ?? "");
      if (contentType.startsWith("text/event-stream")) {
        // A live stream never ends by itself: its status and headers are the answer.
        req.destroy();
        resolve({ status: res.statusCode ?? 0, contentType, body: "" });
        return;
      }
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, contentType, body: text }));
      res.on("error", reject);
    });
    // The daemon may close the connection on a body over the limit before reading it all.
    req.on("error", (err: NodeJS.ErrnoException) =>
      err.code === "ECONNRESET" || err.code === "EPIPE" ? resolve("reset") : reject(err),
    );
    req.end(body);
  });
}

test("10,000 fuzzed requests: no 5xx, every error enveloped, daemon alive", async () => {
  const started = Date.now();
  const fuzz = new Fuzz(20_260_101, t.daemon.token, t.daemon.port);
  for (let i = 0; i < 5; i++) fuzz.conversations.push(await t.conversation());
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  let resets = 0;
  let next = 0;

  const worker = async () => {
    while (next < REQUESTS) {
      next += 1;
      const r = fuzz.request(ROUTE_LIST);
      let out = await send(r.method, r.path, r.headers, r.body);
      // A reset on a kept-alive socket can be the socket's, not the request's: the server closed
      // it after an earlier answer (Connection: close) just as the agent reused it. The same
      // request on a connection of its own tells the two apart.
      if (out === "reset" && (r.body?.length ?? 0) <= 1024 * 1024) out = await send(r.method, r.path, r.headers, r.body, true);
      const what = `${r.method} ${r.path.slice(0, 120)} (${r.note})`;
      if (out === "reset") {
        resets += 1;
        if ((r.body?.length ?? 0) <= 1024 * 1024) failures.push(`${what}: connection reset on a small body`);
        continue;
      }
      statuses.set(out.status, (statuses.get(out.status) ?? 0) + 1);
      if (out.status >= 500) failures.push(`${what}: ${out.status} ${out.body.slice(0, 200)}`);
      if (out.status >= 400 && r.method !== "HEAD") {
        const problem = envelopeProblem(out);
        if (problem) failures.push(`${what}: ${out.status} ${problem}`);
      }
      if (out.status === 201 && r.path === "/api/v1/chat/conversations") fuzz.conversations.push(JSON.parse(out.body).id);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));

  const health = await send("GET", "/api/v1/health", { authorization: `Bearer ${t.daemon.token}` }, undefined);
  const seconds = (Date.now() - started) / 1000;
  const byStatus = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(" ");
  console.log(`[reliability] fuzzer: ${REQUESTS} requests over ${ROUTE_LIST.length} routes in ${seconds.toFixed(1)} s; statuses ${byStatus}; ${resets} connections closed on oversize bodies; ${failures.length} failures`);
  expect(failures.slice(0, 20)).toEqual([]);
  expect(health !== "reset" && health.status).toBe(200);
}, 180_000);

function envelopeProblem(out: Outcome): string | null {
  if (!out.contentType.startsWith("application/json")) return `not JSON (${out.contentType}): ${out.body.slice(0, 120)}`;
  let value: any;
  try {
    value = JSON.parse(out.body);
  } catch {
    return `unparseable body: ${out.body.slice(0, 120)}`;
  }
  const e = value?.error;
  if (!e || typeof e !== "object") return `no error envelope: ${out.body.slice(0, 120)}`;
  if (typeof e.code !== "string" || !CODE.test(e.code)) return `bad code ${JSON.stringify(e.code)}`;
  if (typeof e.message !== "string") return "message is not a string";
  if (!("details" in e) || (e.details !== null && typeof e.details !== "object")) return "details missing or not an object";
  return null;
}
