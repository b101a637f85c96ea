import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

export const SCREENSHOTS = fileURLToPath(new URL("../screenshots/", import.meta.url));

const EXECUTABLE = process.env.COFFER_CHROMIUM ?? "/usr/bin/chromium";

/** Debian Chromium, offline: every host but loopback fails to resolve. `extraArgs`: a file's own switches (voice: a fake microphone). */
export function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
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
      ...extraArgs,
    ],
  });
}

export async function newPage(
  browser: Browser,
  options: { colorScheme?: "light" | "dark"; width?: number; height?: number; touch?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1440, height: options.height ?? 900 },
    colorScheme: options.colorScheme ?? "light",
    permissions: ["clipboard-read", "clipboard-write"],
    // A phone: touch events, and the page laid out by its meta viewport as a phone does.
    ...(options.touch ? { hasTouch: true, isMobile: true } : {}),
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await throttle(context, page);
  return { context, page };
}

/**
 * COFFER_E2E_CPU_THROTTLE=<n>: the page's CPU runs n× slower (Chromium's own throttling), the
 * way a loaded CI machine runs it; it shows a test that races the page's next render (a value
 * read right after a click, before the state it set was rendered) within one run.
 */
async function throttle(context: BrowserContext, page: Page): Promise<void> {
  const rate = Number(process.env.COFFER_E2E_CPU_THROTTLE ?? 0);
  if (!(rate > 1)) return;
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate });
}

/** Keep a screenshot of a main state in e2e/screenshots/ (git-ignored). */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Transitions finished: a shot right after a theme switch would catch buttons mid-fade (grey).
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, animations: "disabled" });
}

/** The sizes every main state is shot at: the desktop window and the phone (issue 15). */
export const SHOT_SIZES = [
  { tag: "desktop", width: 1440, height: 900 },
  { tag: "phone", width: 390, height: 844 },
] as const;

/** Two frames: the layout (and any media-query re-render) has settled after a resize. */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}

/**
 * Shoot one state at 1440×900 and 390×844, light and dark (`<name>-<size>-<theme>.png`), then
 * put the page back as it was. The page must follow the system theme (the default).
 */
export async function shotAll(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  const dark = await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches);
  try {
    for (const size of SHOT_SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
        await settled(page);
        await shot(page, `${name}-${size.tag}-${scheme}`);
      }
    }
  } finally {
    if (before) await page.setViewportSize(before);
    await page.emulateMedia({ colorScheme: dark ? "dark" : "light" });
    await settled(page);
  }
}
