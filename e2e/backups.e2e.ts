import { existsSync, statSync } from "node:fs";
import type { BackupStatusOut } from "@coffer/protocol";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { launchBrowser, newPage, settled, shot, SHOT_SIZES } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";

let d: E2eDaemon;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
  ({ page } = await newPage(browser));
  await page.goto(d.openUrl);
  await page.getByRole("navigation", { name: "Main" }).waitFor();
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

/**
 * The Backups section at both sizes, light and dark: like shotAll, but with the section scrolled
 * to the top at each size (it sits below the retention form, past a phone's first screen).
 */
async function shotBackups(name: string): Promise<void> {
  for (const size of SHOT_SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
      await page.getByRole("heading", { name: "Backups" }).evaluate((h) => h.scrollIntoView({ block: "start" }));
      await settled(page);
      await shot(page, `${name}-${size.tag}-${scheme}`);
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });
}

acceptance(
  "024-never-lose",
  "Back up now on the page writes a snapshot and shows it as the last one",
  async () => {
    await d.api.post("/memory", { text: "the staging database is on port 5433", scope: "global" });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Data", exact: true }).click();
    const backups = page.getByRole("region", { name: "Backups" });
    await backups.getByText("None yet").waitFor();
    await shotBackups("backups-none");

    await backups.getByRole("button", { name: "Back up now" }).click();
    await backups.getByRole("status").filter({ hasText: "Backed up" }).waitFor();
    const status = (await d.api.get("/settings/backups")).body as BackupStatusOut;
    const last = status.last!;
    expect(existsSync(last.path)).toBe(true);
    expect(statSync(last.path).mode & 0o777).toBe(0o600);
    // The page shows the file the daemon wrote as the last snapshot.
    await backups.getByText(last.path, { exact: true }).waitFor();
    expect(await backups.getByText("None yet").count()).toBe(0);
    await shotBackups("backups-done");
  },
  90_000,
);
