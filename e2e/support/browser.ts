import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

export const SCREENSHOTS = fileURLToPath(new URL("../screenshots/", import.meta.url));

const EXECUTABLE = process.env.COFFER_CHROMIUM ?? "/usr/bin/chromium";

/** Debian Chromium, offline: every host but loopback fails to resolve. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: EXECUTABLE,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
      "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    ],
  });
}

export async function newPage(
  browser: Browser,
  options: { colorScheme?: "light" | "dark"; width?: number; height?: number } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1440, height: options.height ?? 900 },
    colorScheme: options.colorScheme ?? "light",
    permissions: ["clipboard-read", "clipboard-write"],
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

/** Keep a screenshot of a main state in e2e/screenshots/ (git-ignored). */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Transitions finished: a shot right after a theme switch would catch buttons mid-fade (grey).
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, animations: "disabled" });
}
