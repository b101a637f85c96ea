import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { launchBrowser, newPage, shot } from "./support/browser.js";
import { script, startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { pacedScript, sendFromComposer, ui } from "./support/ui.js";

let d: E2eDaemon;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
});
// Each test gets its own browser context on a fresh draft with the scripted agent chosen,
// and builds the conversations it needs: none relies on what an earlier test left behind.
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

/**
 * Start a conversation from the draft and wait for its first reply, so the test goes on in an
 * open conversation (the draft → conversation switch is covered by its own test).
 */
async function openConversation(text: string): Promise<void> {
  await sendFromComposer(page, text);
  await page.waitForURL(/\/chat\/[^/]+$/);
  await ui(page).lastReply().getByText(`echo: ${text}`).waitFor();
}

/** The id of the conversation open in the page. */
const openId = () => decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);

describe("Chat page, scripted agent, one real daemon", () => {
  test("the token is traded for a session and taken out of the address bar and storage", async () => {
    // The page has traded the token for a session once it shows the draft.
    await page.getByRole("combobox", { name: "Agent" }).waitFor();
    expect(page.url()).not.toContain("token=");
    expect(await page.evaluate(() => localStorage.getItem("coffer.token"))).toBeNull();
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(d.daemon.token);
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem("coffer.session")))!)).toMatchObject({ session_id: expect.any(String) });
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link").first().textContent()).resolves.toContain("Chat");
  });

  // The page half of "chat runs on the built-in model when no connection" (the scenario itself
  // is proved with a real CLI turn in agent-acceptance.test.ts: the scripted agent never reads
  // connections, so it cannot prove the turn side).
  test("with no connection the draft is usable at once and the reply shows the agent's own model", async () => {
    const { composer, lastReply } = ui(page);
    expect((await d.api.get("/connections")).body).toEqual({ connections: [] });
    // No connection configured anywhere: the draft is usable at once, nothing blocks.
    await expect(composer.isEnabled()).resolves.toBe(true);
    expect(await page.getByRole("combobox", { name: "Model" }).inputValue()).toBe("");
    await shot(page, "01-draft");
    await sendFromComposer(page, "hello there");
    await page.waitForURL(/\/chat\/[^/]+$/);
    await lastReply().getByText("echo: hello there").waitFor();
    // The turn ran on the agent's own default model, recorded on the reply.
    await lastReply().getByText(/scripted-1 · 10 in · 2 out/).waitFor();
    await shot(page, "02-first-reply");
  });

  acceptance("008-agent-chat", "second message queues during a streaming turn", async () => {
    const { composer, queue, lastReply, queueButton, thread } = ui(page);
    await openConversation("queue here");
    const slow = pacedScript(40);
    await sendFromComposer(page, slow.script);
    await lastReply().getByText("<1>", { exact: false }).waitFor();
    // Mid-stream: the composer is not locked, and the primary button queues.
    await composer.fill("second message");
    await queueButton.waitFor();
    await composer.press("Enter");
    await queue.getByRole("listitem").filter({ hasText: "second message" }).waitFor();
    expect(await composer.isEnabled()).toBe(true);
    await shot(page, "03-streaming-with-queue");
    // It runs as its own turn once the first ends.
    await thread.getByText("echo: second message").waitFor();
    expect(await thread.getByText(slow.expected, { exact: true }).count()).toBe(1);
    await queue.waitFor({ state: "detached" });
  });

  // Issue 22 B changed the page's rule: a saved edit keeps its place (and the queue waits for it);
  // re-sending at the tail is still what the API's pull-out-and-send does (008 edit-queued, daemon tests).
  test("editing a queued message keeps its place", async () => {
    const { composer, queue } = ui(page);
    await sendFromComposer(page, script({ text: "working" }, { hang: true }));
    await ui(page).stop.waitFor();
    await sendFromComposer(page, "queued one");
    await sendFromComposer(page, "queued two");
    await queue.getByRole("listitem").nth(1).waitFor();
    await page.getByRole("button", { name: "Edit queued message 1", exact: true }).click();
    // Back in the composer to amend; it stays queued (and says so) until the edit is saved.
    await expect.poll(() => composer.inputValue()).toBe("queued one"); // set on the next render, not within the click
    await queue.getByText("Editing — it keeps its place; the queue waits for it").waitFor();
    expect(await queue.getByRole("listitem").count()).toBe(2);
    await composer.fill("queued one, amended");
    await composer.press("Enter");
    await queue.getByRole("listitem").first().getByText("queued one, amended").waitFor();
    expect(await queue.locator(".queue-text").allTextContents()).toEqual(["queued one, amended", "queued two"]);
    await shot(page, "04-queue-edited");
  });

  test("reorder, stop, paused queue and resume", async () => {
    const { queue, thread, stop } = ui(page);
    await sendFromComposer(page, script({ text: "working" }, { hang: true }));
    await stop.waitFor();
    await sendFromComposer(page, "queued two");
    await sendFromComposer(page, "queued one, amended");
    await page.getByRole("list", { name: "Queued messages (2)" }).waitFor();
    await page.getByRole("button", { name: "Move queued message 2", exact: true }).focus();
    await page.keyboard.press("ArrowUp");
    await page.waitForFunction(() => document.querySelector('[aria-label^="Queued messages"] li .queue-text')?.textContent === "queued one, amended");
    await stop.click();
    // Output is kept and labelled, the queue pauses visibly.
    await thread.getByText("Stopped").waitFor();
    await page.getByText("Queue paused — 2 waiting").waitFor();
    await shot(page, "05-stopped-queue-paused");
    await page.getByRole("button", { name: "Resume" }).click();
    await thread.getByText("echo: queued one, amended").waitFor();
    await thread.getByText("echo: queued two").waitFor();
    await queue.waitFor({ state: "detached" });
  });

  test("tool calls show inline as collapsed cards that open to input and output", async () => {
    await sendFromComposer(
      page,
      script(
        { text: "Running the tests.\n\n```ts\nconst ok: boolean = true;\n```\n" },
        { tool: { id: "t1", name: "Bash", input: { command: "npm test" }, output: "42 passed" } },
        { tool: { id: "t2", name: "Read", input: { file_path: "/etc/hosts" }, error: "permission denied" } },
        { text: "All green." },
      ),
    );
    const card = page.getByRole("button", { name: "Bash: npm test, done" });
    await card.waitFor();
    expect(await card.getAttribute("aria-expanded")).toBe("false");
    await card.click();
    await ui(page).lastReply().getByText("42 passed", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Read: /etc/hosts, failed" }).click();
    await ui(page).lastReply().getByText("permission denied", { exact: true }).waitFor();
    await ui(page).lastReply().getByText("All green.").waitFor();
    await shot(page, "06-tool-cards");
  });

  test("a failed turn is labelled and explained", async () => {
    await openConversation("about to fail");
    await sendFromComposer(page, script({ text: "partial" }, { error: { code: "agent_crashed", message: "The agent process exited unexpectedly." } }));
    await ui(page).lastReply().getByText(/Failed — The agent process exited/).waitFor();
    // Said once on screen, in the reply next to its Retry: no banner repeats it (the hidden live region speaks it).
    expect(await ui(page).lastReply().getByText(/The agent process exited unexpectedly/).count()).toBe(1);
    expect(await page.locator(".thread-foot").getByText(/The agent process exited unexpectedly/).count()).toBe(0);
    await page.getByRole("status").getByText("Turn failed: The agent process exited unexpectedly.").waitFor({ state: "attached" });
    await shot(page, "07-turn-failed");
  });

  acceptance("008-agent-chat", "manage conversations", async () => {
    const { history, row } = ui(page);
    await sendFromComposer(page, "manage me");
    await page.waitForURL(/\/chat\/[^/]+$/);
    await ui(page).lastReply().getByText("echo: manage me").waitFor();
    const id = openId();
    // Create a second conversation from the draft and switch between them.
    await page.getByRole("link", { name: "New chat" }).first().click();
    // The router renders a navigation in a transition: until the draft page is there, the old
    // conversation's composer is, and a message typed now would go to it.
    await page.getByRole("combobox", { name: "Agent" }).waitFor();
    await sendFromComposer(page, "another conversation");
    await page.waitForURL((u) => u.pathname.startsWith("/chat/") && !u.pathname.endsWith(id));
    await row("another conversation").waitFor();
    await row("manage me").click();
    await page.waitForURL((u) => u.pathname.endsWith(id));

    // Rename inline from the row menu.
    const target = row("another conversation");
    await target.hover();
    await page.getByRole("button", { name: "More actions for another conversation" }).click();
    await page.getByRole("menuitem", { name: "Rename" }).click();
    const title = history.getByRole("textbox", { name: "Conversation title" });
    await title.fill("Renamed chat");
    await title.press("Enter");
    await row("Renamed chat").waitFor();
    const renamed = await d.api.get("/chat/conversations?archived=false");
    expect(renamed.body.conversations.map((c: { title: string }) => c.title)).toContain("Renamed chat");

    // Archive: it leaves Active, shows under Archived; restore brings it back.
    await row("Renamed chat").hover();
    await page.getByRole("button", { name: "More actions for Renamed chat" }).click();
    await page.getByRole("menuitem", { name: "Archive" }).click();
    await row("Renamed chat").waitFor({ state: "detached" });
    await page.getByRole("radio", { name: "Archived" }).click();
    await row("Renamed chat").click();
    await page.getByText("This conversation is archived.").waitFor();
    await shot(page, "08-archived");
    await page.getByRole("button", { name: "Restore" }).click();
    await row("Renamed chat").waitFor({ state: "detached" });
    await page.getByRole("radio", { name: "Active" }).click();
    await row("Renamed chat").waitFor();

    // Delete, confirmed in a dialog: gone from the list and from the daemon.
    await row("Renamed chat").hover();
    await page.getByRole("button", { name: "More actions for Renamed chat" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await shot(page, "09-delete-confirm");
    await page.getByRole("dialog", { name: "Delete conversation?" }).getByRole("button", { name: "Delete" }).click();
    await row("Renamed chat").waitFor({ state: "detached" });
    const after = await d.api.get("/chat/conversations?archived=false");
    expect(after.body.conversations.map((c: { title: string }) => c.title)).not.toContain("Renamed chat");
  });

  test("search runs on the server over titles and message text", async () => {
    const search = page.getByRole("searchbox", { name: "Search conversations" });
    // Its own conversations: one whose only match is in a message's text, one unrelated.
    const found = (await d.api.post("/chat/conversations", { agent_key: "scripted", title: "Plain title" })).body.id as string;
    const sub = await d.subscribe(found);
    await d.api.post(`/chat/conversations/${found}/messages`, { text: "where is the walrus" });
    await sub.waitFor((e) => e.type === "turn_done");
    sub.close();
    await d.api.post("/chat/conversations", { agent_key: "scripted", title: "Unrelated notes" });
    const links = page.getByRole("navigation", { name: "Conversations" }).getByRole("link");
    await page.getByRole("navigation", { name: "Conversations" }).getByRole("link", { name: /Unrelated notes/ }).waitFor(); // over the list's live stream
    await search.fill("walrus");
    // The list may empty while the server answers (the old rows go before the results come):
    // wait for the answer itself.
    await expect.poll(() => links.allTextContents()).toEqual([expect.stringContaining("Plain title")]);
    await search.fill("zzz-nothing-matches");
    await page.getByText('No conversations match "zzz-nothing-matches".').waitFor();
    await page.getByRole("button", { name: "Clear search" }).click();
  });

  test("dark theme", async () => {
    await page.getByRole("radio", { name: "Dark theme" }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await shot(page, "10-dark");
    await page.getByRole("radio", { name: "System theme" }).click();
  });
});
