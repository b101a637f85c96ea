/**
 * Issue 21 in the browser: a real Chromium opens the private hand-off file `coffer open` gets
 * from the daemon (a file:// path, the only thing on the browser's command line), lands signed
 * in, then signs out from the sidebar: the page shows the signed-out state, forgets the
 * session, and the daemon refuses it at once.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { spawnDaemon, type DaemonProcess } from "../packages/daemon/test/support/spawn-daemon.js";
import { launchBrowser, newPage } from "./support/browser.js";

const home = mkdtempSync(join(tmpdir(), "coffer-e2e-signout-"));
let browser: Browser;
let page: Page;
let daemon: DaemonProcess;

beforeAll(async () => {
  [daemon, browser] = await Promise.all([spawnDaemon(home), launchBrowser()]);
  ({ page } = await newPage(browser));
});
afterAll(async () => {
  await browser?.close();
  daemon?.child.kill("SIGTERM");
  await daemon?.exited;
  rmSync(home, { recursive: true, force: true });
});

acceptance("021-hardening", "an idle page session expires, and sign-out ends it at once", async () => {
  const res = await fetch(`${daemon.url}/api/v1/auth/login-code`, {
    method: "POST",
    headers: { authorization: `Bearer ${daemon.token}`, "content-type": "application/json" },
    body: JSON.stringify({ handoff: true }),
  });
  const { handoff_file } = (await res.json()) as { handoff_file: string };
  await page.goto(`file://${handoff_file}`);
  await page.getByRole("combobox", { name: "Agent" }).waitFor();
  expect(page.url().startsWith(daemon.url)).toBe(true);
  const session = JSON.parse((await page.evaluate(() => localStorage.getItem("coffer.session")))!) as { session_id: string; secret: string };

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("heading", { name: "Signed out" }).waitFor();
  expect(await page.evaluate(() => localStorage.getItem("coffer.session"))).toBeNull();
  const after = await fetch(`${daemon.url}/api/v1/chat/agents`, { headers: { authorization: `Bearer ${session.session_id}.${session.secret}` } });
  expect(after.status).toBe(401);
}, 60_000);
