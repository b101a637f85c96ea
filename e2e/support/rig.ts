import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { launchBrowser, shot } from "./browser.js";
import { startE2eDaemon, type E2eDaemon } from "./daemon.js";

export interface BrowserRig {
  readonly d: E2eDaemon;
  readonly browser: Browser;
  /** Pages a test opened: shot when the test fails, closed after each test. */
  readonly pages: Page[];
}

/** One daemon and one browser for the file's tests; a failing test's pages are shot before they close. */
export function browserRig(options: { browserArgs?: readonly string[] } = {}): BrowserRig {
  const rig = { d: undefined as unknown as E2eDaemon, browser: undefined as unknown as Browser, pages: [] as Page[] };
  beforeAll(async () => {
    [rig.d, rig.browser] = await Promise.all([startE2eDaemon(), launchBrowser(options.browserArgs)]);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === "fail") for (const [i, p] of rig.pages.entries()) await shot(p, `failed-${ctx.task.name.replace(/\W+/g, "-")}-${i}`);
    for (const p of rig.pages.splice(0)) await p.context().close();
  });
  afterAll(async () => {
    await rig.browser?.close();
    await rig.d?.stop();
  });
  return rig;
}
