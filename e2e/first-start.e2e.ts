/**
 * Issue 22, D in the browser: the page a visitor sees before signing in names the command that
 * works where the daemon was started (a clone's `npm run coffer -- open`, carried in the page's
 * HTML), as a code element, with no literal backticks. Shot at both sizes, light and dark.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { spawnDaemon, type DaemonProcess } from "../packages/daemon/test/support/spawn-daemon.js";
import { launchBrowser, newPage, shotAll } from "./support/browser.js";

const home = mkdtempSync(join(tmpdir(), "coffer-e2e-first-"));
let browser: Browser;
let page: Page;
let daemon: DaemonProcess;

beforeAll(async () => {
  // What `npm start` sets in a clone (scripts/start.mjs).
  [daemon, browser] = await Promise.all([spawnDaemon(home, { COFFER_CLI_COMMAND: "npm run coffer --" }), launchBrowser()]);
  ({ page } = await newPage(browser));
});
afterAll(async () => {
  await browser?.close();
  daemon?.child.kill("SIGTERM");
  await daemon?.exited;
  rmSync(home, { recursive: true, force: true });
});

acceptance("022-screens-true", "from a fresh clone the first start opens the page signed in through the private hand-off, and every printed hint names a command that works where it is printed", async () => {
  // No sign-in in the address: the page that tells the owner how to get one.
  await page.goto(daemon.url);
  const dialog = page.getByRole("alertdialog");
  await dialog.getByRole("heading", { name: "Open Coffer from your terminal" }).waitFor();
  const text = (await dialog.textContent()) ?? "";
  expect(text).not.toContain("`");
  expect(await dialog.locator("code").allTextContents()).toEqual(["npm run coffer -- open"]);
  // One unbroken chip at phone width too.
  await page.setViewportSize({ width: 390, height: 844 });
  const chip = await dialog.locator("code").boundingBox();
  expect(chip!.height).toBeLessThan(30);
  await page.setViewportSize({ width: 1440, height: 900 });
  await shotAll(page, "signed-out");
}, 60_000);
