import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

let t: TestDaemon;
let web: string;
beforeAll(async () => {
  // A real built-app layout on disk: the daemon serves it exactly as it serves packages/web/dist.
  web = await mkdtemp(join(tmpdir(), "coffer-web-"));
  await mkdir(join(web, "assets"));
  await writeFile(join(web, "index.html"), '<!doctype html><script src="/boot.js"></script><div id="root"></div>');
  await writeFile(join(web, "boot.js"), "void 0;");
  await writeFile(join(web, "assets", "index-abc123.js"), "console.log('app');");
  t = await startTestDaemon({ webRoot: web });
});
afterAll(async () => {
  await t.close();
  await rm(web, { recursive: true, force: true });
});

/** Raw GET, so a test can send any Host header and read every response header. */
function get(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.get(`${t.daemon.url}${path}`, { headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on("error", reject);
  });
}

/** The CSP as a map of directive → sources. */
function csp(headers: http.IncomingHttpHeaders): Map<string, string[]> {
  const value = headers["content-security-policy"];
  expect(value, "content-security-policy").toBeTypeOf("string");
  return new Map(
    String(value)
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

function expectCommonHeaders(headers: http.IncomingHttpHeaders) {
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("no-referrer");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(csp(headers).get("frame-ancestors")).toEqual(["'none'"]);
}

describe("strict headers", () => {
  test("the page (/ and a client route) gets the strict CSP: nothing remote, no inline script, no eval", async () => {
    for (const path of ["/", "/chat/some-conversation"]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers["content-type"]).toContain("text/html");
      expectCommonHeaders(res.headers);
      const policy = csp(res.headers);
      expect(policy.get("default-src")).toEqual(["'self'"]);
      expect(policy.get("script-src")).toEqual(["'self'"]);
      expect(policy.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
      expect(policy.get("connect-src")).toEqual(["'self'"]);
      expect(policy.get("object-src")).toEqual(["'none'"]);
      expect(policy.get("base-uri")).toEqual(["'none'"]);
      for (const [name, sources] of policy) {
        for (const bad of ["'unsafe-inline'", "'unsafe-eval'", "*", "http:", "https:"]) expect(sources, `${name} ${bad}`).not.toContain(bad);
      }
    }
  });

  test("an asset and the boot script are served with nosniff and a deny-all CSP", async () => {
    for (const path of ["/assets/index-abc123.js", "/boot.js"]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers["content-type"]).toContain("text/javascript");
      expectCommonHeaders(res.headers);
      expect(csp(res.headers).get("default-src")).toEqual(["'none'"]);
    }
  });

  test("API answers carry them too: success, a refused token, a refused Host and an unknown route", async () => {
    const ok = await get("/api/v1/health", { authorization: `Bearer ${t.daemon.token}` });
    expect(ok.status).toBe(200);
    expect(ok.headers["content-type"]).toContain("application/json");
    expectCommonHeaders(ok.headers);
    expect(csp(ok.headers).get("default-src")).toEqual(["'none'"]);
    const unauthorized = await get("/api/v1/health");
    expect(unauthorized.status).toBe(401);
    expectCommonHeaders(unauthorized.headers);
    const wrongHost = await get("/", { host: "evil.example" });
    expect(wrongHost.status).toBe(403);
    expectCommonHeaders(wrongHost.headers);
    const missing = await get("/assets/nope.js");
    expect(missing.status).toBe(404);
    expectCommonHeaders(missing.headers);
  });

  test("a bound route's JSON answer (built with them) carries each once, as the middleware would set them", async () => {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(`${t.daemon.url}/api/v1/chat/conversations?q=anything`, { headers: { authorization: `Bearer ${t.daemon.token}` } }, (r) => {
        r.resume();
        r.on("end", () => resolve(r));
      }).on("error", reject);
    });
    expect(res.statusCode).toBe(200);
    expectCommonHeaders(res.headers);
    expect(res.headers["cross-origin-opener-policy"]).toBe("same-origin");
    expect(res.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
    const names = res.rawHeaders.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
    expect(names.filter((n) => n === "content-type" || n === "content-security-policy" || n === "x-content-type-options")).toHaveLength(3);
  });

  test("a live event stream carries them", async () => {
    const id = await t.conversation();
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.get(`${t.daemon.url}/api/v1/chat/conversations/${id}/events`, { headers: { authorization: `Bearer ${t.daemon.token}` } }, resolve);
      req.on("error", reject);
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/event-stream");
    expectCommonHeaders(res.headers);
    res.destroy();
  });
});
