/**
 * Issue 11, finding 1, in the browser: the daemon stops, another process binds its port.
 * The open page reconnects and is reloaded; the impostor records every request. It must see
 * no token and no session secret, and what the page keeps in storage must not authenticate
 * to a freshly started real daemon.
 */
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { spawnDaemon, type DaemonProcess } from "../packages/daemon/test/support/spawn-daemon.js";
import { launchBrowser, newPage, shot } from "./support/browser.js";

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Records everything; answers proofs with a plausible MAC, everything else with an inert page or JSON. */
async function impostor(port: number) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (c: string) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      if (req.url?.startsWith("/api/")) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ mac: "A".repeat(43) }));
      } else {
        res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>not coffer</title><p>impostor</p>");
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return { seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const home = mkdtempSync(join(tmpdir(), "coffer-e2e-proof-"));
let browser: Browser;
let page: Page;
let daemon: DaemonProcess | undefined;

async function stopDaemon(): Promise<void> {
  daemon!.child.kill("SIGTERM");
  await daemon!.exited;
  daemon = undefined;
}

beforeAll(async () => {
  [daemon, browser] = await Promise.all([spawnDaemon(home, { COFFER_SSE_HEARTBEAT_MS: "1000" }), launchBrowser()]);
  ({ page } = await newPage(browser));
});
afterAll(async () => {
  await browser?.close();
  if (daemon) await stopDaemon();
  rmSync(home, { recursive: true, force: true });
});

const stored = (p: Page) => p.evaluate(() => JSON.stringify(localStorage));

test("an impostor on the stopped daemon's port gets nothing usable from an open page, on reconnect or reload", async () => {
  const { port, token, url } = daemon!;
  // What `coffer open` does: a single-use login code in the fragment.
  const code = ((await (await fetch(`${url}/api/v1/auth/login-code`, { method: "POST", headers: { authorization: `Bearer ${token}` } })).json()) as { code: string }).code;
  await page.goto(`${url}/#login=${code}`);
  await page.getByRole("combobox", { name: "Agent" }).waitFor();
  expect(page.url()).not.toContain(code);
  const session = JSON.parse((await page.evaluate(() => localStorage.getItem("coffer.session")))!) as { session_id: string; secret: string };
  expect(session.secret.length).toBeGreaterThan(20);
  expect(await stored(page)).not.toContain(token);

  await stopDaemon();
  const squatter = await impostor(port);
  let leftInStorage: string;
  try {
    // The page's live link reconnects by itself; the process now on the port fails the proof.
    await page.getByRole("alertdialog").getByText("The process on this port is not your Coffer daemon").waitFor();
    await shot(page, "daemon-proof-impostor");
    expect(squatter.seen.some((r) => r.url === "/api/v1/auth/proof")).toBe(true);
    // A REST request the owner triggers now sends nothing either.
    const before = squatter.seen.length;
    await page.evaluate(() => fetch("/api/v1/chat/agents").catch(() => null)); // a bare fetch carries no credential
    await page.reload();
    await page.getByText("impostor").waitFor();
    expect(squatter.seen.length).toBeGreaterThan(before);

    for (const r of squatter.seen) {
      expect(r.headers.authorization, `${r.method} ${r.url}`).toBeUndefined();
      expect(r.headers["x-coffer-token"]).toBeUndefined();
      const all = `${r.url}\n${JSON.stringify(r.headers)}\n${r.body}`;
      expect(all).not.toContain(token);
      expect(all).not.toContain(session.secret);
    }
    // What the impostor's own page could read from this origin's storage:
    leftInStorage = await stored(page);
  } finally {
    await squatter.close();
  }

  // The owner starts the daemon again, on the same port and data dir (same long-lived token).
  daemon = await spawnDaemon(home, { COFFER_PORT: String(port), COFFER_SSE_HEARTBEAT_MS: "1000" });
  expect(daemon.token).toBe(token);
  const values: string[] = Object.values(JSON.parse(leftInStorage) as Record<string, string>);
  const parsed = JSON.parse(values.find((v) => v.includes("secret")) ?? "{}") as { session_id?: string; secret?: string };
  const candidates = [...values, `${parsed.session_id}.${parsed.secret}`, parsed.secret ?? ""];
  expect(candidates.join("\n")).not.toContain(token);
  for (const candidate of candidates) {
    const res = await fetch(`${daemon.url}/api/v1/chat/agents`, { headers: { authorization: `Bearer ${candidate}` } });
    expect(res.status, candidate.slice(0, 12)).toBe(401);
  }

  // The real page, reloaded against the new daemon: the old session ended with the old process.
  await page.goto(`${daemon.url}/chat`);
  await page.getByRole("alertdialog").getByRole("heading", { name: "Session ended" }).waitFor();
  await shot(page, "daemon-proof-session-ended");
  // `coffer open` signs it in again.
  const fresh = ((await (await fetch(`${daemon.url}/api/v1/auth/login-code`, { method: "POST", headers: { authorization: `Bearer ${token}` } })).json()) as { code: string }).code;
  await page.goto(`${daemon.url}/#login=${fresh}`);
  await page.getByRole("combobox", { name: "Agent" }).waitFor();
  expect(await page.getByRole("alertdialog").count()).toBe(0);
});
