import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { launchBrowser, newPage, shotAll } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";

// A page part's code is its own chunk; the daemon can stop or restart while the page fetches it.
// The defect (found by e2e/daemon-proof.e2e.ts on a loaded machine): one failed chunk fetch threw
// into React's render and the whole page went blank — the daemon-proof dialog and live link too.
let d: E2eDaemon;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
  ({ page } = await newPage(browser));
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

const nav = () => page.getByRole("navigation", { name: "Main" });

test("a part whose code fails to arrive twice is fetched again and appears; the page never blanks", async () => {
  let refused = 0;
  await page.route(/\/assets\/settings-routes-[^/]+\.js$/, (route) => (refused++ < 2 ? route.abort("connectionreset") : route.continue()));
  await page.goto(d.openUrl);
  await nav().getByRole("link", { name: "Schedules", exact: true }).click();
  await page.getByRole("heading", { name: "Schedules" }).first().waitFor();
  expect(refused).toBeGreaterThanOrEqual(3);
});

test("a part whose code never arrives says so in its place, and the rest of the page still works", async () => {
  await page.route(/\/assets\/vault-routes-[^/]+\.js$/, (route) => route.abort("connectionrefused"));
  await nav().getByRole("link", { name: "Skills", exact: true }).click();
  await page.getByRole("status").getByText(/^This page did not load/).waitFor({ timeout: 30_000 });
  await shotAll(page, "chunk-unavailable");
  expect(await page.getByRole("status").getByRole("button", { name: "Reload" }).isVisible()).toBe(true);
  await nav().getByRole("link", { name: "Chat", exact: true }).click();
  await page.getByRole("combobox", { name: "Agent" }).waitFor();
}, 60_000);
