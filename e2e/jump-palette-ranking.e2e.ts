import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { launchBrowser, newPage, shot, shotAll } from "./support/browser.js";
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
  if (ctx.task.result?.state === "fail") await shot(page, `palette-failed-${ctx.task.name.replace(/\W+/g, "-")}`);
  await context.close();
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

/** A conversation made over the API with its own title, and one finished turn in it. */
async function seeded(title: string, text: string): Promise<string> {
  const id = (await d.api.post("/chat/conversations", { agent_key: "scripted", title })).body.id as string;
  const sub = await d.subscribe(id);
  await d.api.post(`/chat/conversations/${id}/messages`, { text });
  await sub.waitFor((e) => e.type === "turn_done");
  sub.close();
  return id;
}

describe("the jump palette's ranking", () => {
  acceptance("022-screens-true", "the jump palette ranks title matches above message matches and shows snippets for content", async () => {
    // The title match is the oldest: the daemon's newest-first order would put it last.
    await seeded("Quokka field guide", "an opening line");
    const inside = await seeded("Weekend errands", "remember to feed the quokka before noon");
    await seeded("Travel notes", "we saw a quokka on the island");
    await ui(page).composer.focus();
    await page.keyboard.press("Control+k");
    const input = page.getByRole("combobox", { name: "Jump to a conversation" });
    await input.fill("quokka");
    const options = page.getByRole("listbox", { name: "Conversations" }).getByRole("option");
    // The daemon has answered once the content hits (with their snippets) are listed.
    await options.filter({ hasText: "Weekend errands" }).locator("mark").waitFor();
    await options.filter({ hasText: "Travel notes" }).waitFor();
    const texts = await options.allTextContents();
    expect(texts).toHaveLength(3);
    expect(texts[0]).toContain("Quokka field guide");
    expect(texts.slice(1).map((t) => (t.includes("Travel notes") ? "Travel notes" : t.includes("Weekend errands") ? "Weekend errands" : t))).toEqual([
      "Travel notes",
      "Weekend errands",
    ]);
    // The title row marks the word in its title (one mark: no snippet repeats it); content rows
    // show the words around the match, the match marked.
    expect(await options.first().locator("mark").allTextContents()).toEqual(["Quokka"]);
    const errands = options.filter({ hasText: "Weekend errands" });
    expect(await errands.innerText()).toContain("feed the quokka before noon");
    expect(await errands.locator("mark").allTextContents()).toEqual(["quokka"]);
    await shotAll(page, "22i-palette-ranking");

    // A content hit opens the conversation at the matching message.
    await input.press("ArrowDown");
    await input.press("ArrowDown");
    await input.press("Enter");
    await page.waitForURL((u) => u.pathname === `/chat/${inside}` && u.searchParams.has("m"));
    const current = ui(page).thread.locator('[aria-current="true"]');
    await current.waitFor();
    expect(await current.innerText()).toContain("quokka");
  });
});
