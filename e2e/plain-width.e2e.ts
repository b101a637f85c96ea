import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { launchBrowser, newPage, shot, shotAll } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";

// Issue 22, L: Vault and Settings use the width of a 1440 px window (a 960 px cap left a dead
// gutter of over 200 px on the right), and Memory's search row keeps its distance from the
// section heading under it.
const SPEC = "022-screens-true";

let d: E2eDaemon;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
  ({ context, page } = await newPage(browser));
  await page.goto(d.openUrl);
  await page.getByRole("navigation", { name: "Main" }).waitFor();
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") await shot(page, `width-failed-${ctx.task.name.replace(/\W+/g, "-").slice(0, 80)}`);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await d?.stop();
});

const PAGES: [string, string][] = [
  ["/vault/skills", "Skills"],
  ["/vault/memory", "Memory"],
  ["/vault/knowledge", "Knowledge"],
  ["/vault/mcp", "MCP servers"],
  ["/vault/mcp/log", "Tool calls log"],
  ["/settings/connections", "LLM Connections"],
  ["/settings/credentials", "Credentials"],
  ["/settings/channels", "Channels"],
  ["/settings/data", "Data"],
  ["/settings/alerts", "Alerts"],
];

describe("Vault and Settings at 1440 px", () => {
  acceptance(SPEC, "Vault and Settings use the width at 1440 px and the Memory search row does not touch its heading", async () => {
    await d.api.post("/memory", { text: "The owner prefers tabs over spaces.", scope: "global" });
    for (const [path, title] of PAGES) {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: title, exact: true }).click();
      await page.waitForURL((u) => u.pathname === path);
      const heading = page.getByRole("heading", { name: title, level: 1 });
      await heading.waitFor();
      await page.getByRole("status", { name: /^Loading/ }).waitFor({ state: "detached" });
      // The page's header row spans its content: from the workspace's right edge only the
      // page's own padding is left, never a dead gutter.
      const { gutter, widest } = await page.evaluate(() => {
        const main = document.querySelector("main")!.getBoundingClientRect();
        const head = document.querySelector(".page-head")!.getBoundingClientRect();
        const widest = Math.max(...[...document.querySelectorAll(".page > *")].map((el) => el.getBoundingClientRect().right));
        return { gutter: main.right - head.right, widest: main.right - widest };
      });
      expect(gutter, `${title}: space right of the header`).toBeLessThanOrEqual(40);
      expect(widest, `${title}: space right of the widest block`).toBeLessThanOrEqual(40);
    }

    // Memory: the search row and the "Facts" heading under it are a section's distance apart.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Memory", exact: true }).click();
    const search = page.getByRole("searchbox", { name: "Search memory" });
    const facts = page.getByRole("heading", { name: /^Facts/, level: 2 });
    await facts.waitFor();
    const row = (await search.locator("xpath=ancestor::div[contains(@class,'search-bar')]").boundingBox())!;
    const below = (await facts.boundingBox())!;
    expect(below.y - (row.y + row.height), "gap between the search row and the Facts heading").toBeGreaterThanOrEqual(16);
    await shotAll(page, "l01-memory");
    for (const [path, title] of PAGES) {
      await page.goto(`${d.daemon.url}${path}`);
      await page.getByRole("heading", { name: title, level: 1 }).waitFor();
      await page.getByRole("status", { name: /^Loading/ }).waitFor({ state: "detached" });
      await shotAll(page, `l02${path.replace(/\//g, "-")}`);
    }
  });
});
