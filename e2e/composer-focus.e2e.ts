import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { launchBrowser, newPage, shot } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { ui } from "./support/ui.js";

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
  if (ctx.task.result?.state === "fail") await shot(page, `focus-failed-${ctx.task.name.replace(/\W+/g, "-")}`);
  await context.close();
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

const composerHasFocus = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label")?.startsWith("Message ") ?? false);
/** The published signal that the new page is there and ready for keys: its own composer has the focus. */
const focusIn = (section: string) =>
  page.waitForFunction((name) => {
    const el = document.activeElement;
    return !!el?.getAttribute("aria-label")?.startsWith("Message ") && el.closest("section.thread")?.getAttribute("aria-label") === name;
  }, section);
const openId = () => new URL(page.url()).pathname.split("/").pop()!;

/** The owner's messages in a conversation, as the daemon stored them. */
async function sentTexts(id: string): Promise<string[]> {
  const { messages } = (await d.api.get(`/chat/conversations/${id}/messages`)).body as { messages: { role: string; content: { text?: string }[] }[] };
  return messages.filter((m) => m.role === "user").map((m) => m.content.map((b) => b.text ?? "").join(""));
}

/** Keys as the owner types them (one event each, no waiting): nothing here gives the page time to settle. */
async function typeAndSend(text: string): Promise<void> {
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

describe("the composer keeps the focus", () => {
  acceptance("022-screens-true", "after the first message of a new chat and after Ctrl+Shift+O the composer has the focus, and a follow-up typed at once is sent", async () => {
    // 1. A new chat: the follow-up is typed while the conversation is being created.
    await ui(page).composer.fill("first of a new chat");
    await ui(page).composer.press("Enter");
    await typeAndSend("typed at once");
    await page.waitForURL(/\/chat\/[^/]+$/);
    await ui(page).thread.getByText("echo: typed at once").waitFor();
    expect(await sentTexts(openId())).toEqual(["first of a new chat", "typed at once"]);
    expect(await composerHasFocus()).toBe(true);

    // 2. Typed the moment the conversation's page opens (the draft has become a conversation).
    await page.getByRole("combobox", { name: "Agent" }).waitFor({ state: "detached" });
    await page.keyboard.press("Control+Shift+O");
    await focusIn("New chat");
    await typeAndSend("second new chat");
    await page.waitForURL(/\/chat\/[^/]+$/);
    await typeAndSend("right after it opened");
    await ui(page).thread.getByText("echo: right after it opened").waitFor();
    expect(await sentTexts(openId())).toEqual(["second new chat", "right after it opened"]);

    // 3. Ctrl+Shift+O from a conversation whose focus is elsewhere (the thread): typing goes on in the new chat.
    await ui(page).thread.click();
    expect(await composerHasFocus()).toBe(false);
    await page.keyboard.press("Control+Shift+O");
    await focusIn("New chat");
    await typeAndSend("after the shortcut");
    await page.waitForURL(/\/chat\/[^/]+$/);
    await ui(page).thread.getByText("echo: after the shortcut").waitFor();
    expect(await sentTexts(openId())).toEqual(["after the shortcut"]);
    expect(await composerHasFocus()).toBe(true);
  });

  test("text typed but not sent while the new chat becomes a conversation stays in its composer", async () => {
    await ui(page).composer.fill("the first message");
    await ui(page).composer.press("Enter");
    await page.keyboard.type("still typing");
    await page.waitForURL(/\/chat\/[^/]+$/);
    await ui(page).thread.getByText("echo: the first message").waitFor();
    await page.keyboard.type(" on");
    expect(await ui(page).composer.inputValue()).toBe("still typing on");
    // The new-chat draft is empty again: that text went with the conversation.
    await page.keyboard.press("Control+Shift+O");
    await page.waitForURL((u) => u.pathname === "/chat");
    await focusIn("New chat"); // the new chat's own composer, not the conversation's on its way out
    expect(await ui(page).composer.inputValue()).toBe("");
  });

  test("a conversation opened from the jump palette has the focus in its composer", async () => {
    const id = (await d.api.post("/chat/conversations", { agent_key: "scripted", title: "Palette focus target" })).body.id as string;
    await page.keyboard.press("Control+k");
    const input = page.getByRole("combobox", { name: "Jump to a conversation" });
    await input.fill("Palette focus");
    await page.getByRole("listbox", { name: "Conversations" }).getByRole("option", { name: /Palette focus target/ }).waitFor();
    await input.press("Enter");
    await focusIn("Palette focus target");
    await typeAndSend("typed after the jump");
    await ui(page).thread.getByText("echo: typed after the jump").waitFor();
    expect(await sentTexts(id)).toEqual(["typed after the jump"]);
  });
});
