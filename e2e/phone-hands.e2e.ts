import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest";
import { gatewayClient } from "../packages/daemon/test/fixtures/mcp/gateway-client.js";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { launchBrowser, newPage, settled, shot, shotAll } from "./support/browser.js";
import { script, startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { ui } from "./support/ui.js";

// Issue 22, G: the phone's hands (390×844, touch: Chromium's touch events and meta viewport).
// One labelled menu instead of the icon rail, 44 px touch targets with touch wording, and the
// tool-call log's columns all on screen.
const SPEC = "022-screens-true";
const PHONE = { width: 390, height: 844 };

let d: E2eDaemon;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") await shot(page, `hands-failed-${ctx.task.name.replace(/\W+/g, "-").slice(0, 80)}`);
  await context?.close();
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

async function openPhone(path = "/chat"): Promise<void> {
  ({ context, page } = await newPage(browser, { ...PHONE, touch: true }));
  await page.goto(d.openUrl);
  await menuButton().waitFor();
  if (path !== "/chat") await page.goto(`${d.daemon.url}${path}`);
}

const topBar = () => page.getByRole("complementary", { name: "Application" });
const menuButton = () => topBar().getByRole("button", { name: /^Menu/ });
const menu = () => page.getByRole("dialog", { name: "Menu" });

/** Every destination, by its visible name, in the order the menu lists them. */
const DESTINATIONS = [
  "Chat",
  "Skills",
  "Memory",
  "Knowledge",
  "MCP servers",
  "Tool calls log",
  "LLM Connections",
  "Credentials",
  "Channels",
  "Schedules",
  "Data",
  "Alerts",
];

/**
 * Every control on screen a finger can hit (buttons, links, fields, menu items) that is
 * smaller than 44×44 CSS px, named. Links inside running text are left out (WCAG 2.5.5's
 * inline exception), and so is what is not drawn (no box, or hidden for screen readers only).
 */
async function smallTargets(): Promise<string[]> {
  // A sheet or menu that is still sliding in is measured once it is where it stops.
  await page.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity).map((a) => a.finished)));
  await settled(page);
  return page.evaluate(() => {
    const selector = 'button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], [role="menuitem"], [role="radio"], [role="checkbox"]';
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      if (el.closest(".sr-only, [hidden], [aria-hidden='true']")) continue;
      // A link inside a sentence is sized by the sentence (the inline exception).
      if (el.tagName === "A" && el.closest(".markdown, p, .field-hint")) continue;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden" || style.display === "none" || Number(style.opacity) === 0) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      // A field inside its label (a checkbox, the search box) is hit anywhere on the label.
      const target = (el instanceof HTMLInputElement && el.closest("label")) || el;
      const hit = target.getBoundingClientRect();
      if (hit.width < 44 || hit.height < 44) {
        const name = el.getAttribute("aria-label") ?? el.textContent?.trim() ?? el.getAttribute("placeholder") ?? el.tagName;
        out.push(`${el.tagName.toLowerCase()} "${name.slice(0, 40)}" ${+hit.width.toFixed(2)}×${+hit.height.toFixed(2)}`);
      }
    }
    return out;
  });
}

/** Hints that name keys a phone has not got. */
const KEY_WORDS = /Shift\+Enter|Ctrl|⌘|\bEnter\b|\bEsc\b|[Dd]rop files/;
const visibleText = () => page.evaluate(() => document.body.innerText);

describe("the phone's hands (390×844, touch)", () => {
  acceptance(SPEC, "at phone size one labelled menu replaces the icon rail", async () => {
    await openPhone();
    // The top bar: a menu button, the section the owner is in, the theme; no rail of unnamed icons.
    expect(await topBar().getByRole("link").count()).toBe(0);
    expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(0);
    await topBar().getByText("Chat", { exact: true }).waitFor();
    expect(await menuButton().getAttribute("aria-haspopup")).toBe("dialog");
    expect(await menuButton().getAttribute("aria-expanded")).toBe("false");
    await shot(page, "g01-top-bar-390");

    // The menu lists every destination with its icon and its visible name, each a full row.
    await menuButton().tap();
    await menu().waitFor();
    const links = menu().getByRole("navigation", { name: "Main" }).getByRole("link");
    expect((await links.allInnerTexts()).map((t) => t.trim())).toEqual(DESTINATIONS);
    for (const link of await links.all()) {
      const box = (await link.boundingBox())!;
      expect(box.height, `${await link.innerText()} row`).toBeGreaterThanOrEqual(44);
      expect(await link.locator("svg").count(), `${await link.innerText()} icon`).toBe(1);
    }
    // Focus is in it (on the page open now), and Tab never leaves it.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-current"))).toBe("page");
    for (let i = 0; i < DESTINATIONS.length + 4; i++) {
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    }
    await shotAll(page, "g02-menu-open");

    // Esc closes it and gives focus back to the menu button.
    await page.keyboard.press("Escape");
    await menu().waitFor({ state: "detached" });
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-controls"))).toBe("app-menu");

    // Going somewhere closes it, and the top bar names the section the owner is in (the
    // page's own title is right under it).
    await menuButton().tap();
    await menu().getByRole("link", { name: "Memory", exact: true }).tap();
    await page.waitForURL((u) => u.pathname === "/vault/memory");
    await menu().waitFor({ state: "detached" });
    await topBar().getByText("Vault", { exact: true }).waitFor();
    await page.getByRole("heading", { name: "Memory", level: 1 }).waitFor();

    // The scrim closes it; so does a tap on the page already open (nowhere to go).
    await menuButton().tap();
    await menu().waitFor();
    await page.touchscreen.tap(PHONE.width - 20, PHONE.height / 2);
    await menu().waitFor({ state: "detached" });
    await menuButton().tap();
    await menu().getByRole("link", { name: "Memory", exact: true }).tap();
    await menu().waitFor({ state: "detached" });

    // Sign out is in the menu, named.
    await menuButton().tap();
    expect(await menu().getByRole("button", { name: "Sign out" }).isVisible()).toBe(true);
    await menu().getByRole("button", { name: "Close menu" }).tap();
    await menu().waitFor({ state: "detached" });
  });

  acceptance(SPEC, "at phone size every touch target is at least 44 by 44 px and hints use touch wording", async () => {
    // A conversation with a finished turn (its message actions), then a turn that asks the
    // owner (the question card, the turn running) with messages queued behind it.
    const id = (await d.api.post("/chat/conversations", { agent_key: "scripted", title: "Touch targets" })).body.id as string;
    const sub = await d.subscribe(id);
    await d.api.post(`/chat/conversations/${id}/messages`, { text: "first words" });
    await sub.waitFor((e) => e.type === "turn_done");
    await d.api.post(`/chat/conversations/${id}/messages`, {
      text: script({
        ask: {
          questions: [
            { header: "Colour", text: "Which colour?", options: [{ label: "Red", description: "warm" }, { label: "Blue", description: "cool" }], multi_select: false, allow_free_text: true },
          ],
        },
      }),
    });
    await sub.waitFor((e) => e.type === "turn_start");
    for (const text of ["queued one", "queued two"]) await d.api.post(`/chat/conversations/${id}/messages`, { text });
    await sub.waitFor((e) => e.type === "queue_changed" && e.pending.length === 2);
    sub.close();

    await openPhone(`/chat/${id}`);
    const card = page.getByRole("form", { name: "The agent asks you" });
    await card.waitFor();
    await ui(page).queue.getByRole("listitem").nth(1).waitFor();
    // Dragging (its own chunk) has loaded: the grips are in their final form.
    await page.waitForFunction(() => document.querySelectorAll('[aria-describedby="queue-drag-hint"]').length > 0);
    await page.getByRole("button", { name: "Send queued message 1 now" }).waitFor();
    await page.getByRole("button", { name: "Copy message" }).first().waitFor();

    // The whole thread, scrolled through: the question card, the message actions, the queue.
    const offenders: string[] = [];
    const scroller = page.locator(".thread-scroll");
    for (const at of ["top", "bottom"] as const) {
      await scroller.evaluate((el, where) => el.scrollTo({ top: where === "top" ? 0 : el.scrollHeight }), at);
      offenders.push(...(await smallTargets()));
    }
    await shotAll(page, "g03-touch-chat-question-queue");
    // The composer with words in it while the turn runs: Steer and Stop beside the send button.
    await ui(page).composer.fill("one more thing");
    await page.getByRole("button", { name: "Steer" }).waitFor();
    offenders.push(...(await smallTargets()));
    const hint = await page.locator(`#${await ui(page).composer.getAttribute("aria-describedby")}`).innerText();
    await shot(page, "g04-touch-composer-steer-390");
    // The conversation's ⋯ menu, open.
    await page.getByRole("button", { name: "More actions", exact: true }).tap();
    await page.getByRole("menuitem", { name: "Rename" }).waitFor();
    offenders.push(...(await smallTargets()));
    await page.keyboard.press("Escape");
    // The history drawer, its rows and their ⋯ buttons.
    await page.getByRole("button", { name: "Open history" }).tap();
    const drawer = page.getByRole("dialog", { name: "Conversation history" });
    await drawer.getByRole("link", { name: /Touch targets/ }).waitFor();
    offenders.push(...(await smallTargets()));
    await drawer.getByRole("button", { name: "Close history" }).tap();
    await drawer.waitFor({ state: "detached" });
    // The menu sheet.
    await menuButton().tap();
    await menu().waitFor();
    offenders.push(...(await smallTargets()));
    await menu().getByRole("button", { name: "Close menu" }).tap();
    await menu().waitFor({ state: "detached" });
    expect([...new Set(offenders)], "controls smaller than 44×44 px").toEqual([]);
    expect(hint).toBe("Send queues it after this turn · Steer puts it into this turn");
    expect(await visibleText()).not.toMatch(KEY_WORDS);

    // Answering (one tap: a single-choice question) ends the turn; the idle composer's hint names the tap, not the keys.
    await card.getByRole("button", { name: /^Blue/ }).tap();
    await card.waitFor({ state: "detached" });
    await ui(page).composer.fill("");
    await page.getByText("Tap the arrow to send").waitFor({ timeout: 30_000 });
    expect(await visibleText()).not.toMatch(KEY_WORDS);
    expect(await smallTargets()).toEqual([]);

    // The upload area on a phone names its buttons, not a drag that cannot happen.
    await page.goto(`${d.daemon.url}/vault/skills`);
    const upload = page.getByRole("group", { name: "Upload skills" });
    await upload.getByText("Upload files or a folder").waitFor();
    expect(await visibleText()).not.toMatch(KEY_WORDS);

    // Every Vault and Settings page, with a row in its table where it has one.
    await d.api.post("/memory", { text: "The owner prefers tabs.", scope: "global" });
    await d.api.put("/credentials/touch-key", { secret: "sk-test-not-a-real-key" });
    await d.api.post("/knowledge", { name: "handbook", description: "The team handbook." });
    const pages: [string, string][] = [
      ["/vault/skills", "Skills"],
      ["/vault/memory", "Memory"],
      ["/vault/knowledge", "Knowledge"],
      ["/vault/mcp", "MCP servers"],
      ["/vault/mcp/log", "Tool calls log"],
      ["/settings/connections", "LLM Connections"],
      ["/settings/credentials", "Credentials"],
      ["/settings/channels", "Channels"],
      ["/settings/schedules", "Schedules"],
      ["/settings/data", "Data"],
      ["/settings/alerts", "Alerts"],
    ];
    const pageOffenders: string[] = [];
    for (const [path, title] of pages) {
      await page.goto(`${d.daemon.url}${path}`);
      await page.getByRole("heading", { name: title, level: 1 }).waitFor();
      await page.getByRole("status", { name: /^Loading/ }).waitFor({ state: "detached" });
      pageOffenders.push(...(await smallTargets()).map((o) => `${path}: ${o}`));
    }
    expect(pageOffenders, "Vault and Settings controls smaller than 44×44 px").toEqual([]);
  });

  acceptance(SPEC, "at phone size wide tables show their hidden columns", async () => {
    // Two real tool calls through the daemon's MCP gateway: the log has rows.
    let client: Client | undefined;
    try {
      client = await gatewayClient(d.daemon.url, d.daemon.token, "phone-hands-e2e/1.0");
      await client.callTool({ name: "coffer__recall", arguments: { query: "tabs" } });
      await client.callTool({ name: "coffer__list_skills", arguments: {} });
    } finally {
      await client?.close();
    }
    await openPhone("/vault/mcp/log");
    const table = page.getByRole("table", { name: "Tool calls" });
    const row = table.getByRole("row").filter({ hasText: "coffer · recall" }).first();
    await row.waitFor();
    // Every column's value is on screen for the row, each inside the screen, named by its column.
    const cells = row.getByRole("cell");
    expect(await cells.count()).toBe(6);
    const labels: string[] = [];
    for (const cell of await cells.all()) {
      expect(await cell.isVisible()).toBe(true);
      const box = (await cell.boundingBox())!;
      expect(box.x, "cell starts on screen").toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, "cell ends on screen").toBeLessThanOrEqual(PHONE.width);
      expect((await cell.innerText()).trim().length).toBeGreaterThan(0);
      labels.push((await cell.getAttribute("data-label")) ?? "");
    }
    expect(labels).toEqual(["When", "Caller", "Tool", "Conversation", "Duration", "Outcome"]);
    await row.getByText(/\d ms$/).waitFor();
    await row.getByText("OK", { exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const wrap = await table.evaluate((t) => ({ scroll: t.parentElement!.scrollWidth, client: t.parentElement!.clientWidth }));
    expect(wrap.scroll, "the log scrolls sideways (hidden columns)").toBeLessThanOrEqual(wrap.client);
    await shotAll(page, "g05-tool-log");
  });
});
