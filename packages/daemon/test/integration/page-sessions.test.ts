/**
 * Issue 21 (V2, sessions): every page session is audited with how it was opened and by which
 * client; an idle session expires on the daemon's clock; sign-out ends a session at once.
 */
import http from "node:http";
import { afterEach, describe, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const SPEC = "021-hardening";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

/** The daemon's clock, moved by the test (no sleeping for idle expiry). */
class TestClock {
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
}

let t: TestDaemon | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/api/v1${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function auditRows(d: TestDaemon, action: string): Promise<any[]> {
  return (await d.api.get(`/audit?action=${action}`)).body.entries;
}

describe("page sessions", () => {
  acceptance(SPEC, "every page session opened is audited with how (login code or token) and by which client", async () => {
    t = await startTestDaemon();
    const { code } = (await t.api.post("/auth/login-code")).body;
    // The poller's attack: whoever redeems the code gets a session; the audit now says so.
    const viaCode = await post(t.daemon.url, "/auth/session", { login_code: code }, { "user-agent": FIREFOX });
    expect(viaCode.status).toBe(201);
    const viaToken = await post(t.daemon.url, "/auth/session", {}, { authorization: `Bearer ${t.daemon.token}`, "user-agent": "curl/8.5.0" });
    expect(viaToken.status).toBe(201);
    const rows = await auditRows(t, "session_opened");
    expect(rows.map((r) => r.details)).toEqual([
      { session_id: viaToken.body.session_id, via: "token", client: "curl/8.5.0" },
      { session_id: viaCode.body.session_id, via: "login_code", client: "Firefox 128 on Linux" },
    ]);
    // Neither the secret nor the code is in the audit.
    const all = JSON.stringify((await t.api.get("/audit")).body);
    for (const secret of [code, viaCode.body.secret, viaToken.body.secret]) expect(all).not.toContain(secret);
  });

  acceptance(SPEC, "an idle page session expires, and sign-out ends it at once", async () => {
    const clock = new TestClock(Date.UTC(2030, 0, 1));
    t = await startTestDaemon({ clock, sessionIdleMs: 60 * 60_000 });
    const open = async () => {
      const s = (await post(t!.daemon.url, "/auth/session", {}, { authorization: `Bearer ${t!.daemon.token}` })).body;
      return { authorization: `Bearer ${s.session_id}.${s.secret}`, id: s.session_id as string };
    };
    const agents = (h: { authorization: string }) => fetch(`${t!.daemon.url}/api/v1/chat/agents`, { headers: h });

    // Idle expiry: each use restarts the idle clock; an hour without one ends the session.
    const idle = await open();
    clock.t += 59 * 60_000;
    expect((await agents(idle)).status).toBe(200);
    clock.t += 59 * 60_000;
    expect((await agents(idle)).status).toBe(200);
    clock.t += 60 * 60_000 + 1;
    const expired = await agents(idle);
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as any).error.code).toBe("SESSION_ENDED");
    expect((await post(t.daemon.url, "/auth/proof", { nonce: "n".repeat(32), session_id: idle.id })).body.error.code).toBe("SESSION_ENDED");

    // Sign-out: the session is gone on the very next request, and the audit says who signed out.
    const live = await open();
    expect((await agents(live)).status).toBe(200);
    const out = await fetch(`${t.daemon.url}/api/v1/auth/sign-out`, { method: "POST", headers: live });
    expect(out.status).toBe(204);
    const after = await agents(live);
    expect(after.status).toBe(401);
    expect(((await after.json()) as any).error.code).toBe("SESSION_ENDED");
    expect((await auditRows(t, "session_signed_out"))[0].details).toEqual({ session_id: live.id });
    expect((await auditRows(t, "session_expired"))[0].details).toEqual({ session_id: idle.id });
    // The token is no session: signing it out ends nothing and it keeps working.
    expect((await t.api.post("/auth/sign-out")).status).toBe(204);
    expect((await t.api.get("/chat/agents")).status).toBe(200);
  });
});

describe("opening the page from the hand-off file", () => {
  test("a cross-site top-level navigation may load the page, never the API", async () => {
    t = await startTestDaemon();
    // node:http, not fetch: fetch sets its own Sec-Fetch-Mode.
    const get = (path: string, headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => http.get(`${t!.daemon.url}${path}`, { headers }, (res) => (res.resume(), resolve(res.statusCode ?? 0))).on("error", reject));
    const nav = { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" };
    expect(await get("/", nav)).not.toBe(403);
    expect(await get("/api/v1/health", { ...nav, authorization: `Bearer ${t.daemon.token}` })).toBe(403);
    expect(await get("/", { "sec-fetch-site": "cross-site", "sec-fetch-mode": "cors" })).toBe(403);
  });
});
