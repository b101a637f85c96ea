import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
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

const thread = () => ui(page).thread;
const userBubbles = () => thread().getByText(/^(first draft|second draft|edited draft)$/);

/** Start a conversation from the draft and wait for its reply. */
async function openConversation(text: string, reply: string | RegExp = `echo: ${text}`): Promise<void> {
  await sendFromComposer(page, text);
  await page.waitForURL(/\/chat\/[^/]+$/);
  await ui(page).lastReply().getByText(reply).waitFor();
}

/** A conversation made over the API with its own title, and a turn in it. */
async function seeded(title: string, text: string): Promise<string> {
  const id = (await d.api.post("/chat/conversations", { agent_key: "scripted", title })).body.id as string;
  const sub = await d.subscribe(id);
  await d.api.post(`/chat/conversations/${id}/messages`, { text });
  await sub.waitFor((e) => e.type === "turn_done");
  sub.close();
  return id;
}

describe("chat basics", () => {
  acceptance("015-page-basics", "copy a reply puts its markdown source on the clipboard, and single line breaks are kept", async () => {
    await openConversation("**bold** first line\nsecond line", /second line/);
    const reply = ui(page).lastReply();
    // One paragraph, two lines: the single break is kept (it used to merge into one line).
    expect(await reply.locator("p").first().evaluate((p) => p.innerHTML)).toMatch(/first line<br>\s*second line/);
    await reply.getByRole("button", { name: "Copy reply" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("echo: **bold** first line\nsecond line");
    await shot(page, "15b-reply-actions-1440-light");
  });

  acceptance("015-page-basics", "retry a failed turn sends the owner's last message again as a new turn", async () => {
    const failing = script({ text: "partial" }, { error: { code: "agent_crashed", message: "The agent process exited unexpectedly." } });
    await openConversation(failing, /Failed — The agent process exited/);
    const replies = ui(page).replies;
    expect(await replies.count()).toBe(1);
    await ui(page).lastReply().getByRole("button", { name: "Retry" }).click();
    // A new turn with the same text: a second owner message and a second reply; the first stays.
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Messages"] article[aria-label="Reply"]').length === 2);
    await ui(page).lastReply().getByText(/Failed — The agent process exited/).waitFor();
    const sent = (await d.api.get(`/chat/conversations/${new URL(page.url()).pathname.split("/").pop()}/messages`)).body.messages as { role: string; content: { text: string }[] }[];
    expect(sent.filter((m) => m.role === "user").map((m) => m.content[0]!.text)).toEqual([failing, failing]);
    // Only the last reply offers Retry.
    expect(await replies.first().getByRole("button", { name: "Retry" }).count()).toBe(0);
    await shot(page, "15b-retry-1440-light");
  });

  test("a stopped reply can be retried too", async () => {
    await openConversation("before the stop");
    const hanging = script({ text: "working on it" }, { hang: true });
    await sendFromComposer(page, hanging);
    await ui(page).lastReply().getByText("working on it").waitFor();
    // Mid-turn there is nothing to retry yet.
    expect(await ui(page).lastReply().getByRole("button", { name: "Retry" }).count()).toBe(0);
    await ui(page).stop.click();
    await ui(page).lastReply().getByText("Stopped").waitFor();
    await ui(page).lastReply().getByRole("button", { name: "Retry" }).click();
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Messages"] article[aria-label="Reply"]').length === 3);
    await ui(page).lastReply().getByText("working on it").waitFor();
    await ui(page).stop.click(); // leave nothing running
    await ui(page).lastReply().getByText("Stopped").waitFor();
  });

  acceptance("015-page-basics", "edit and resend sends the edited text as a new message and keeps the original", async () => {
    await openConversation("first draft");
    const original = thread().getByText("first draft", { exact: true });
    await original.hover();
    await page.getByRole("button", { name: "Edit and send as a new message" }).first().click();
    const box = page.getByRole("textbox", { name: "Edit message" });
    expect(await box.inputValue()).toBe("first draft");
    await shot(page, "15b-edit-resend-1440-light");
    await box.fill("edited draft");
    await box.press("Enter");
    await ui(page).lastReply().getByText("echo: edited draft").waitFor();
    expect(await userBubbles().allTextContents()).toEqual(["first draft", "edited draft"]);
  });

  acceptance("015-page-basics", "tool names read as server · tool, not the agent's raw MCP name", async () => {
    await openConversation(script({ tool: { id: "t1", name: "mcp__coffer__coffer__recall", input: { query: "deploy" }, output: "[]" } }, { text: "Nothing remembered." }), "Nothing remembered.");
    const card = ui(page).lastReply().getByRole("button", { name: "coffer · recall: deploy, done" });
    await card.waitFor();
    expect(await ui(page).lastReply().innerText()).not.toContain("mcp__");
  });

  acceptance("015-page-basics", "Ctrl+K opens a palette that filters conversations as you type and opens one with Enter", async () => {
    const id = await seeded("Palette target conversation", "hello palette");
    await seeded("Something else", "other");
    await ui(page).composer.focus(); // works while typing in the composer too
    await page.keyboard.press("Control+k");
    const input = page.getByRole("combobox", { name: "Jump to a conversation" });
    await input.waitFor();
    await input.fill("palette targ");
    const options = page.getByRole("listbox", { name: "Conversations" }).getByRole("option");
    await options.filter({ hasText: "Something else" }).waitFor({ state: "detached" });
    expect(await options.allTextContents()).toEqual([expect.stringContaining("Palette target conversation")]);
    await shot(page, "15b-palette-1440-light");
    await input.press("Enter");
    await page.waitForURL((u) => u.pathname === `/chat/${id}`);
    await expect(page.getByRole("dialog", { name: "Jump to a conversation" }).count()).resolves.toBe(0);
  });

  acceptance("015-page-basics", "keyboard shortcuts: new chat, focus search, and a ? list of them all", async () => {
    await openConversation("shortcut home");
    await thread().click(); // out of the composer: plain keys are shortcuts here
    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await help.getByText("Jump to a conversation").waitFor();
    await help.getByText("New chat").waitFor();
    await shot(page, "15b-shortcuts-1440-light");
    await page.keyboard.press("Escape");
    await help.waitFor({ state: "detached" });
    // Ctrl+K and Esc: the palette closes and the focus is back where it was (the composer).
    await ui(page).composer.focus();
    await page.keyboard.press("Control+k");
    await page.getByRole("combobox", { name: "Jump to a conversation" }).waitFor();
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label")?.startsWith("Message "));
    await thread().click();
    await page.keyboard.press("/");
    await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "Search conversations");
    await page.keyboard.press("Control+Shift+O");
    await page.waitForURL((u) => u.pathname === "/chat");
    await page.getByRole("heading", { name: /What should .* work on\?/ }).waitFor();
  });

  test("the shortcuts list has a visible button, and Tab stays inside the palette and the list while they are open", async () => {
    await seeded("Trap one", "one");
    const button = page.getByRole("complementary", { name: "Application" }).getByRole("button", { name: "Keyboard shortcuts" });
    await button.click();
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await help.getByText("Jump to a conversation").waitFor();
    const focusInside = (name: string) => page.evaluate((n) => !!document.activeElement?.closest(`[role="dialog"][aria-label="${n}"]`), name);
    for (const key of ["Tab", "Shift+Tab", "Tab"]) {
      await page.keyboard.press(key);
      expect(await focusInside("Keyboard shortcuts"), `${key} in the shortcuts list`).toBe(true);
    }
    await page.keyboard.press("Escape");
    await help.waitFor({ state: "detached" });
    await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "Keyboard shortcuts");

    await ui(page).composer.focus();
    await page.keyboard.press("Control+k");
    await page.getByRole("listbox", { name: "Conversations" }).getByRole("option", { name: /Trap one/ }).waitFor();
    for (const key of ["Tab", "Tab", "Shift+Tab", "Shift+Tab"]) {
      await page.keyboard.press(key);
      expect(await focusInside("Jump to a conversation"), `${key} in the palette`).toBe(true);
    }
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label")?.startsWith("Message "));
  });

  acceptance("015-page-basics", "a search result shows a snippet with the matched terms marked and opens at the matching message", async () => {
    const id = await seeded("Plain snippet title", "opening words");
    const sub = await d.subscribe(id);
    const before = sub.events.length;
    await d.api.post(`/chat/conversations/${id}/messages`, { text: "the quokka ran over the bridge" });
    await sub.waitFor((e) => e.type === "turn_done", before);
    sub.close();
    await page.getByRole("searchbox", { name: "Search conversations" }).fill("quokka");
    const row = ui(page).row(/Plain snippet title/);
    await row.locator("mark").first().waitFor();
    expect(await row.locator("mark").allTextContents()).toContain("quokka");
    expect(await row.innerText()).toContain("ran over the bridge");
    await shot(page, "15b-search-snippet-1440-light");
    await row.click();
    await page.waitForURL((u) => u.pathname === `/chat/${id}` && u.searchParams.has("m"));
    // The matching message is the one shown as current (and flashed).
    const current = thread().locator('[aria-current="true"]');
    await current.waitFor();
    expect(await current.innerText()).toContain("quokka");
  });

  acceptance("015-page-basics", "the model field is labelled and suggests only the chosen agent's models", async () => {
    await openConversation("which model");
    await page.getByRole("link", { name: "New chat" }).first().click();
    const model = page.getByRole("combobox", { name: "Model" });
    await page.getByText("Model", { exact: true }).waitFor(); // a visible label, not only a placeholder
    // The scripted agent lists none of its own: its recent model only (never another agent's).
    await page.waitForFunction(() => {
      const input = document.querySelector<HTMLInputElement>('input[aria-label="Model"]');
      return input?.list?.options.length === 1;
    });
    expect(await model.evaluate((el: HTMLInputElement) => [...el.list!.options].map((o) => o.value))).toEqual(["scripted-1"]);
  });

  test("screens at phone size and in the dark theme", async () => {
    await openConversation("look at me\nsecond line", /second line/);
    const url = page.url();
    for (const [width, height] of [[1440, 900], [390, 844]] as const) {
      for (const colorScheme of ["light", "dark"] as const) {
        const view = await newPage(browser, { width, height, colorScheme });
        await view.context.addInitScript(() => localStorage.setItem("coffer.historyOpen", "false"));
        await view.page.goto(d.openUrl);
        await view.page.getByRole("combobox", { name: "Agent" }).waitFor();
        await view.page.goto(url);
        await ui(view.page).lastReply().getByRole("button", { name: "Copy reply" }).waitFor();
        await shot(view.page, `15b-thread-${width}-${colorScheme}`);
        await view.page.keyboard.press("Control+k");
        await view.page.getByRole("combobox", { name: "Jump to a conversation" }).waitFor();
        await shot(view.page, `15b-palette-${width}-${colorScheme}`);
        await view.context.close();
      }
    }
  });
});
