import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, newPage, shot } from "./support/browser.js";
import { script, startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { sendFromComposer, ui } from "./support/ui.js";

/** Finding 11 (issue 11): nothing typed is lost — not a draft on reload, not a queued message being edited. */
let d: E2eDaemon;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
  const opened = await newPage(browser);
  page = opened.page;
  // The strict CSP must not get in the way of ordinary use: collect any violation.
  await opened.context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(d.openUrl);
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") await shot(page, `failed-${ctx.task.name.replace(/\W+/g, "-")}`);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

const openId = () => decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
const serverQueue = async (id: string) =>
  ((await d.api.get(`/chat/conversations/${id}/pending`)).body.pending as { id: string; text: string }[]).map((p) => p.text);

/** Poll the daemon's queue until it reads `texts` (a deadline, no sleeps). */
async function untilServerQueue(id: string, texts: string[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  let last: string[] = [];
  while (Date.now() < deadline) {
    last = await serverQueue(id);
    if (JSON.stringify(last) === JSON.stringify(texts)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(last).toEqual(texts);
}

describe("nothing typed is lost", () => {
  test("the new-conversation draft survives a reload and is cleared once sent", async () => {
    await page.getByRole("combobox", { name: "Agent" }).selectOption("scripted");
    const { composer } = ui(page);
    await composer.fill("a thought for a new chat");
    await page.reload();
    await expect(ui(page).composer.inputValue()).resolves.toBe("a thought for a new chat");
    await page.getByRole("combobox", { name: "Agent" }).selectOption("scripted");
    await ui(page).composer.press("Enter");
    await page.waitForURL(/\/chat\/[^/]+$/);
    await ui(page).lastReply().getByText("echo: a thought for a new chat").waitFor();
    await page.getByRole("link", { name: "New chat" }).first().click();
    await page.getByRole("combobox", { name: "Agent" }).waitFor();
    expect(await ui(page).composer.inputValue()).toBe("");
    await page.goBack();
    await page.waitForURL(/\/chat\/[^/]+$/);
  });

  test("a conversation's draft survives a reload, and goes with the conversation", async () => {
    const id = openId();
    await ui(page).composer.fill("half-written reply");
    await page.reload();
    await ui(page).lastReply().waitFor();
    expect(await ui(page).composer.inputValue()).toBe("half-written reply");
    // Each conversation keeps its own. (Wait for the draft page: the router renders a
    // navigation in a transition, so the old composer can still be there right after the click.)
    await page.getByRole("link", { name: "New chat" }).first().click();
    await page.getByRole("combobox", { name: "Agent" }).waitFor();
    expect(await ui(page).composer.inputValue()).toBe("");
    await page.goBack();
    await page.waitForURL((u) => u.pathname.endsWith(id));
    await expect(ui(page).composer.inputValue()).resolves.toBe("half-written reply");
    await ui(page).composer.fill("");
    expect(await page.evaluate((k) => localStorage.getItem(k), `coffer.draft.c.${id}`)).toBeNull();
  });

  test("editing a queued message leaves it in the server queue; a reload mid-edit keeps it; Esc restores; saving keeps its place", async () => {
    const id = openId();
    const { composer, queue, stop } = ui(page);
    await sendFromComposer(page, script({ text: "working" }, { hang: true }));
    await stop.waitFor();
    await sendFromComposer(page, "queued alpha");
    await sendFromComposer(page, "queued beta");
    await queue.getByRole("listitem").nth(1).waitFor();
    await untilServerQueue(id, ["queued alpha", "queued beta"]);

    // Edit (↑ or a row's button) opens the row in the composer on the next render, not within
    // the click: wait for it, never race it (a fill before it lands is overwritten, and an Enter
    // then saves the edit instead of sending).
    const editing = async (text: string) => {
      await expect.poll(() => composer.inputValue()).toBe(text);
      await queue.getByText("Editing — it keeps its place; the queue waits for it").waitFor();
    };

    // ↑ in the empty composer opens the last one; the server queue is untouched.
    await composer.press("ArrowUp");
    await editing("queued beta");
    await composer.press("End");
    await composer.pressSequentially(", being edited");
    expect(await serverQueue(id)).toEqual(["queued alpha", "queued beta"]);
    await shot(page, "12-editing-queued-message");

    // A reload mid-edit: the message is still queued, on the server and in the tray.
    await page.reload();
    await queue.getByRole("listitem").nth(1).waitFor();
    expect(await serverQueue(id)).toEqual(["queued alpha", "queued beta"]);
    expect(await queue.locator(".queue-text").allTextContents()).toEqual(["queued alpha", "queued beta"]);
    expect(await composer.inputValue()).toBe("");

    // Leaving mid-edit (another conversation) changes nothing either.
    await page.getByRole("button", { name: "Edit queued message 1", exact: true }).click();
    await editing("queued alpha");
    await page.getByRole("link", { name: "New chat" }).first().click();
    await page.getByRole("combobox", { name: "Agent" }).waitFor();
    expect(await serverQueue(id)).toEqual(["queued alpha", "queued beta"]);
    await page.goBack();
    await queue.getByRole("listitem").nth(1).waitFor();

    // Esc ends an edit in place.
    await page.getByRole("button", { name: "Edit queued message 1", exact: true }).click();
    await editing("queued alpha");
    await composer.fill("queued alpha, changed my mind");
    await composer.press("Escape");
    // The set-aside draft comes back on the next render, not within the key event.
    await expect.poll(() => composer.inputValue()).toBe("");
    expect(await queue.getByText("Editing — it keeps its place; the queue waits for it").count()).toBe(0);
    expect(await serverQueue(id)).toEqual(["queued alpha", "queued beta"]);
    expect(await stop.isVisible()).toBe(true); // Esc ended the edit, it did not stop the turn

    // Saving replaces it in its own place.
    await page.getByRole("button", { name: "Edit queued message 1", exact: true }).click();
    await editing("queued alpha");
    await composer.fill("queued alpha, amended");
    await composer.press("Enter");
    await untilServerQueue(id, ["queued alpha, amended", "queued beta"]);
    await queue.getByRole("listitem").first().getByText("queued alpha, amended").waitFor();

    // Clean up: stop the turn, drop the queue.
    await stop.click();
    await page.getByText("Queue paused — 2 waiting").waitFor();
    await page.getByRole("button", { name: "Clear" }).click();
    await queue.waitFor({ state: "detached" });
  });

  test("a message the daemon never got survives a reload, waits there for the owner's Send, and is then sent exactly once", async () => {
    const id = openId();
    const isSend = (url: URL) => url.pathname.endsWith(`/chat/conversations/${id}/messages`);
    // The network drops the send: the page says so and keeps the message.
    await page.route(isSend, (route) => (route.request().method() === "POST" ? route.abort() : route.continue()));
    await sendFromComposer(page, "lost in the network");
    await page.getByText("Not sent").waitFor();
    await page.unroute(isSend);
    await page.reload();
    // Read back from storage it is not sent on its own (a squatter could have written it: stored-outbox.e2e.ts).
    const earlier = page.getByRole("group", { name: "Not sent — from an earlier visit" });
    await earlier.getByRole("button", { name: "Send" }).click();
    await ui(page).lastReply().getByText("echo: lost in the network").waitFor();
    const messages = (await d.api.get(`/chat/conversations/${id}/messages`)).body.messages as { role: string; content: { text?: string }[] }[];
    expect(messages.filter((m) => m.role === "user" && m.content[0]?.text === "lost in the network")).toHaveLength(1);
    await page.waitForFunction((k) => localStorage.getItem(k) === null, `coffer.draft.outbox.${id}`);
  });

  test("a deleted conversation's draft is deleted too", async () => {
    const id = openId();
    await ui(page).composer.fill("never sent");
    const key = `coffer.draft.c.${id}`;
    expect(await page.evaluate((k) => localStorage.getItem(k), key)).toBe("never sent");
    // Deleted elsewhere (the CLI, another tab): the list's live stream tells this page.
    expect((await d.api.delete(`/chat/conversations/${id}`)).status).toBe(204);
    await page.waitForFunction((k) => localStorage.getItem(k) === null, key);
  });

  test("the page ran under its CSP without a single violation, its boot script included", async () => {
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toMatch(/^(light|dark)$/);
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  });
});
