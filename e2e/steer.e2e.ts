import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { launchBrowser, newPage, shot } from "./support/browser.js";
import { script, startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { sendFromComposer, ui } from "./support/ui.js";

let d: E2eDaemon;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
});
beforeEach(async () => {
  ({ context, page } = await newPage(browser));
  await page.goto(d.openUrl);
  await page.getByRole("combobox", { name: "Agent" }).selectOption("scripted");
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") await shot(page, `failed-${ctx.task.name.replace(/\W+/g, "-")}`);
  await context.close();
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

describe("Chat page: steer or queue (scripted agent)", () => {
  test("while a turn runs Enter queues, Ctrl+Enter steers into the turn, and a queued row's Send now steers it", async () => {
    const { composer, queue, thread, lastReply } = ui(page);
    // The turn reads two steered messages, then ends.
    await sendFromComposer(page, script({ text: "working " }, { await_steer: true }, { await_steer: true }, { text: " finished" }));
    await page.waitForURL(/\/chat\/[^/]+$/);
    await lastReply().getByText("working").waitFor();

    // Ctrl+Enter: into the running turn, shown where it landed.
    await composer.fill("use tabs");
    await page.getByRole("button", { name: "Steer" }).waitFor();
    await composer.press("Control+Enter");
    await lastReply().getByText("steered: use tabs").waitFor();
    await thread.getByText("use tabs", { exact: true }).waitFor();

    // Enter: queued, not steered; then "Send now" on its row steers it.
    await composer.fill("and spaces");
    await composer.press("Enter");
    await queue.getByText("and spaces").waitFor();
    await shot(page, "steer-queued-row");
    await page.getByRole("button", { name: "Send queued message 1 now" }).click();
    await lastReply().getByText("steered: and spaces finished").waitFor();
    await queue.waitFor({ state: "detached" });
    await shot(page, "steer-done");

    // Reloaded, the thread holds the same timeline: the reply split around each steered message.
    await page.reload();
    const replies = ui(page).replies;
    await ui(page).lastReply().getByText("steered: and spaces finished").waitFor();
    expect(await replies.count()).toBe(3);
    expect(await ui(page).thread.getByText("use tabs", { exact: true }).count()).toBe(1);
  });
});
