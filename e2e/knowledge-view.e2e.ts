import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { launchBrowser, newPage, shot, SHOT_SIZES } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";

let d: E2eDaemon;
let browser: Browser;
let kb: string;

/** Enough documents that the viewer, which opens below their table, starts below the fold. */
const DOCS = 24;

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
  kb = (await d.api.post("/knowledge", { name: "long list" })).body.id as string;
  const files = Array.from({ length: DOCS }, (_, i) => ({
    path: `note-${String(i + 1).padStart(2, "0")}.md`,
    content_base64: Buffer.from(`# Note ${i + 1}\n\nThe body of note ${i + 1}.\n`).toString("base64"),
  }));
  const job = (await d.api.post(`/knowledge/${kb}/uploads`, { label: "notes", files })).body;
  let status = job.status as string;
  while (status === "running" || status === "queued") status = (await d.api.get(`/knowledge/imports/${job.id}`)).body.status;
  expect(status).toBe("done");
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

describe("knowledge document viewer", () => {
  acceptance("022-screens-true", "viewing a knowledge document brings it on screen", async () => {
    for (const size of SHOT_SIZES) {
      for (const colorScheme of ["light", "dark"] as const) {
        const { context, page } = await newPage(browser, { width: size.width, height: size.height, colorScheme });
        try {
          await page.goto(d.openUrl);
          await page.getByRole("combobox", { name: "Agent" }).waitFor(); // the token exchange has landed
          await page.goto(`${d.daemon.url}/vault/knowledge?kb=${kb}`);
          // The first document's View, near the top: the viewer opens under the whole table.
          const view = page.getByRole("button", { name: "View note-01.md" });
          await view.click();
          const heading = page.getByRole("heading", { level: 2, name: "note-01.md" });
          await heading.waitFor();
          await page.getByLabel("Content of note-01.md").getByRole("heading", { name: "Note 1" }).waitFor();
          // The scroll may be animated: wait until the heading sits wholly inside the viewport.
          await page.waitForFunction(
            (name) => {
              const h = [...document.querySelectorAll("h2")].find((e) => e.textContent === name);
              if (!h) return false;
              const r = h.getBoundingClientRect();
              return r.top >= 0 && r.bottom <= window.innerHeight;
            },
            "note-01.md",
            { timeout: 5_000 },
          );
          // The focus is on what was opened (a keyboard user goes on reading from there).
          expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("note-01.md");
          await shot(page, `22h-knowledge-view-${size.tag}-${colorScheme}`);
        } finally {
          await context.close();
        }
      }
    }
  });
});
