import http from "node:http";
import { ERROR_CATALOGUE, ROUTE_LIST } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

let t: TestDaemon;
let conv: string;
beforeAll(async () => {
  t = await startTestDaemon();
  conv = await t.conversation();
});
afterAll(() => t.close());

const concrete = (path: string) => path.replace("{id}", conv);

/** Raw request to a daemon (the shared one by default), so tests can send any Host header and malformed bodies. */
function raw(method: string, path: string, headers: Record<string, string>, body?: string, base = t.daemon.url) {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("the daemon's edge", () => {
  test("every /api/v1 route refuses a request without the token, in the envelope", async () => {
    // The proof is the one unauthenticated route: it answers to anyone, before any credential travels.
    for (const route of ROUTE_LIST.filter((r) => r.auth !== "none")) {
      for (const headers of [{}, { authorization: "Bearer wrong" }, { "x-coffer-token": "wrong" }] as Record<string, string>[]) {
        const res = await raw(route.method.toUpperCase(), `/api/v1${concrete(route.path)}`, headers, route.body ? "{}" : undefined);
        expect(res.status, `${route.method} ${route.path}`).toBe(401);
        expect(res.body.error.code).toBe("UNAUTHORIZED");
      }
    }
  });

  test("both token headers work", async () => {
    expect((await raw("GET", "/api/v1/health", { authorization: `Bearer ${t.daemon.token}` })).status).toBe(200);
    expect((await raw("GET", "/api/v1/health", { "x-coffer-token": t.daemon.token })).status).toBe(200);
  });

  test("a non-loopback Host is rejected (DNS rebinding), even with the token", async () => {
    const res = await raw("GET", "/api/v1/health", { host: "evil.example", authorization: `Bearer ${t.daemon.token}` });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("FORBIDDEN_HOST");
    expect((await raw("GET", "/", { host: "evil.example:80" })).status).toBe(403);
    expect((await raw("GET", "/api/v1/health", { host: `localhost:${t.daemon.port}`, "x-coffer-token": t.daemon.token })).status).toBe(200);
  });

  test("a cross-site Origin is rejected; the page's own origin is fine", async () => {
    const auth = { authorization: `Bearer ${t.daemon.token}` };
    const evil = await raw("GET", "/api/v1/health", { ...auth, origin: "http://evil.example" });
    expect(evil.status).toBe(403);
    expect(evil.body.error.code).toBe("FORBIDDEN_ORIGIN");
    expect((await raw("GET", "/api/v1/health", { ...auth, origin: "http://127.0.0.1:1" })).status).toBe(403);
    expect((await raw("GET", "/api/v1/health", { ...auth, origin: t.daemon.url })).status).toBe(200);
  });

  test("bad bodies get 400/413/422 envelopes, never 500", async () => {
    const auth = { authorization: `Bearer ${t.daemon.token}`, "content-type": "application/json" };
    const path = `/api/v1/chat/conversations/${conv}/messages`;
    const malformed = await raw("POST", path, auth, "{not json");
    expect(malformed).toMatchObject({ status: 400, body: { error: { code: "INVALID_JSON" } } });
    const wrongType = await raw("POST", path, auth, JSON.stringify({ text: 42 }));
    expect(wrongType).toMatchObject({ status: 422, body: { error: { code: "VALIDATION_FAILED" } } });
    expect(wrongType.body.error.details.issues[0].path).toBe("text");
    const tooLong = await raw("POST", path, auth, JSON.stringify({ text: "x".repeat(32769) }));
    expect(tooLong.status).toBe(422);
    const empty = await raw("POST", path, auth, JSON.stringify({ text: "" }));
    expect(empty.status).toBe(422);
    const huge = await raw("POST", path, auth, JSON.stringify({ text: "x".repeat(2 * 1024 * 1024) }));
    expect(huge).toMatchObject({ status: 413, body: { error: { code: "PAYLOAD_TOO_LARGE" } } });
    const none = await raw("POST", "/api/v1/chat/conversations", auth);
    expect(none).toMatchObject({ status: 400, body: { error: { code: "INVALID_JSON" } } });
    const unknown = await raw("GET", "/api/v1/nope", auth);
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
  });

  test("the OpenAPI document is generated from the route table and covers every route", async () => {
    const doc = (await t.api.get("/openapi.json")).body;
    expect(doc.openapi).toBe("3.1.0");
    for (const route of ROUTE_LIST) expect(doc.paths[route.path]?.[route.method], `${route.method} ${route.path}`).toBeDefined();
    const conversation = doc.paths["/chat/conversations/{id}"].get.responses["200"].content["application/json"].schema;
    expect(conversation.required).toEqual(expect.arrayContaining(["id", "agent_key", "title", "channel_binding", "running"]));
    expect(doc.components["x-error-codes"].CONVERSATION_NOT_FOUND).toMatchObject({ status: 404, kind: "not_found" });
    expect(Object.keys(doc.components["x-error-codes"])).toEqual(Object.keys(ERROR_CATALOGUE));
  });

  test("without a built web app, / explains how to get one", async () => {
    const res = await fetch(`${t.daemon.url}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Coffer is running");
  });
});

test("the audit log pages back newest first and rejects a bad limit", async () => {
  for (let i = 0; i < 3; i++) await t.conversation();
  const first = await t.api.get("/audit?action=conversation_created&limit=2");
  expect(first.status).toBe(200);
  expect(first.body.entries).toHaveLength(2);
  expect(first.body.entries[0].id).toBeGreaterThan(first.body.entries[1].id);
  const next = await t.api.get(`/audit?action=conversation_created&limit=2&before=${first.body.next_before}`);
  expect(next.body.entries[0].id).toBeLessThan(first.body.entries[1].id);
  expect((await t.api.get("/audit?limit=0")).body.error.code).toBe("VALIDATION_FAILED");
});

test("a request Node's parser refuses is answered in the envelope; a HEAD one without a body", async () => {
  const longPath = `/api/v1/chat/conversations/${"x".repeat(20_000)}`;
  const get = await raw("GET", longPath, { authorization: `Bearer ${t.daemon.token}` });
  expect(get).toMatchObject({ status: 431, body: { error: { code: "HEADERS_TOO_LARGE" } } });
  // A body after a HEAD answer would be garbage to the client's parser; this one parses.
  const head = await raw("HEAD", longPath, { authorization: `Bearer ${t.daemon.token}` });
  expect(head).toEqual({ status: 431, body: null });
});

test("a malformed percent-escape in the path or query is a 400 INVALID_URL envelope, and nothing is logged as a failure", async () => {
  const logged: string[] = [];
  const record = (level: string) => (msg: string, ctx?: Record<string, unknown>) => logged.push(`${level} ${msg} ${JSON.stringify(ctx ?? {})}`);
  const own = await startTestDaemon({ logger: { debug: () => undefined, info: () => undefined, warn: record("warn"), error: record("error") } });
  try {
    const auth = { authorization: `Bearer ${own.daemon.token}` };
    const send = (path: string) => raw("GET", path, auth, undefined, own.daemon.url);
    for (const path of ["/%E0%A4%A", "/api/v1/chat/conversations/%E0%A4%A", "/api/v1/chat/conversations?q=%E0%A4%A", "/assets/%ZZ.js"]) {
      const res = await send(path);
      expect(res, path).toMatchObject({ status: 400, body: { error: { code: "INVALID_URL" } } });
    }
    // Well-formed escapes still work.
    expect((await send("/api/v1/chat/conversations?q=%C3%A9t%C3%A9")).status).toBe(200);
    expect(logged.filter((l) => /stack|request failed|URIError/.test(l))).toEqual([]);
  } finally {
    await own.close();
  }
});
