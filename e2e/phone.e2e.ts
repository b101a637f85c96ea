import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { launchBrowser, newPage, settled, shot, shotAll } from "./support/browser.js";
import { script, startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { sendFromComposer, ui } from "./support/ui.js";

// Issue 15: the page at phone size (390×844, touch) — the history drawer, the header menu, no
// page wider than the screen, the working folder — and the queue reordered by dragging, by
// touch on the phone and by mouse on the desktop, checked against the daemon's own queue.
const SPEC = "015-page-basics";
const PHONE = { width: 390, height: 844 };

let d: E2eDaemon;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") await shot(page, `phone-failed-${ctx.task.name.replace(/\W+/g, "-")}`);
  await context?.close();
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

async function openPhone(path = "/"): Promise<void> {
  ({ context, page } = await newPage(browser, { ...PHONE, touch: true }));
  await page.goto(d.openUrl);
  // At phone size the destinations are in the menu sheet (issue 22, G): its button is the sign of the app.
  await page.getByRole("complementary", { name: "Application" }).getByRole("button", { name: /^Menu/ }).waitFor();
  if (path !== "/") await page.goto(`${d.daemon.url}${path}`);
}

async function openDesktop(): Promise<void> {
  ({ context, page } = await newPage(browser));
  await page.goto(d.openUrl);
  await page.getByRole("navigation", { name: "Main" }).waitFor();
}

/** A conversation with one finished turn, made over HTTP (the page is not what is tested here). */
async function conversationWithReply(title: string, text = "hello"): Promise<string> {
  const id = (await d.api.post("/chat/conversations", { agent_key: "scripted", title })).body.id as string;
  const sub = await d.subscribe(id);
  await d.api.post(`/chat/conversations/${id}/messages`, { text });
  await sub.waitFor((e) => e.type === "turn_done");
  sub.close();
  return id;
}

/** A conversation whose turn hangs (so messages queue), with three queued messages. */
async function conversationWithQueue(title: string): Promise<string> {
  const id = (await d.api.post("/chat/conversations", { agent_key: "scripted", title })).body.id as string;
  const sub = await d.subscribe(id);
  await d.api.post(`/chat/conversations/${id}/messages`, { text: script({ text: "working" }, { hang: true }) });
  await sub.waitFor((e) => e.type === "turn_start");
  for (const text of ["queued one", "queued two", "queued three"]) await d.api.post(`/chat/conversations/${id}/messages`, { text });
  await sub.waitFor((e) => e.type === "queue_changed" && e.pending.length === 3);
  sub.close();
  return id;
}

/** Dragging loads after the page (its own chunk): the grips say "Drag" once it is there. */
const dragReady = () => page.waitForFunction(() => document.querySelectorAll('[aria-describedby="queue-drag-hint"]').length > 0);

const queueTexts = async (id: string): Promise<string[]> =>
  ((await d.api.get(`/chat/conversations/${id}/pending`)).body.pending as { text: string }[]).map((p) => p.text);

/**
 * The page is never wider than the screen: nothing to scroll sideways. The page itself, and
 * the workspace's tall scrolling regions (a Vault page, the thread, the history list), which
 * would otherwise hide a too-wide card by clipping it instead of widening the page.
 */
async function expectNoOverflow(where: string): Promise<void> {
  await settled(page);
  const { scroll, inner, regions } = await page.evaluate(() => {
    const tall = [...document.querySelectorAll<HTMLElement>("body *")].filter((el) => {
      const style = getComputedStyle(el);
      return /auto|scroll/.test(style.overflowY) && el.clientHeight > window.innerHeight / 2;
    });
    return {
      scroll: document.documentElement.scrollWidth,
      inner: window.innerWidth,
      regions: tall.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => `${el.getAttribute("aria-label") ?? el.tagName} ${el.scrollWidth}>${el.clientWidth}`),
    };
  });
  expect(scroll, `${where}: page is ${scroll}px wide on a ${inner}px screen`).toBeLessThanOrEqual(inner);
  expect(regions, `${where}: regions that scroll sideways`).toEqual([]);
}

/** The centre of an element, in CSS pixels. */
async function centre(locator: Locator): Promise<{ x: number; y: number }> {
  const box = (await locator.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * A finger drag through Chromium's touch input (Playwright's touchscreen only taps), 16 ms a
 * step by the events' own clock. The finger rests on the target before it lifts, as a drop
 * does: lifting mid-motion is a fling, and Chromium spends the next tap stopping it.
 */
async function touchDrag(from: { x: number; y: number }, to: { x: number; y: number }, steps = 12): Promise<void> {
  const cdp = await context.newCDPSession(page);
  const start = Date.now() / 1000;
  let tick = 0;
  const send = (type: "touchStart" | "touchMove" | "touchEnd", p?: { x: number; y: number }) =>
    cdp.send("Input.dispatchTouchEvent", {
      type,
      touchPoints: p ? [{ x: Math.round(p.x), y: Math.round(p.y), id: 1 }] : [],
      timestamp: start + 0.016 * tick++,
    });
  await send("touchStart", from);
  for (let i = 1; i <= steps; i++) await send("touchMove", { x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps });
  for (let i = 0; i < 15; i++) await send("touchMove", to);
  await send("touchEnd");
  await cdp.detach();
}

/** Go somewhere through the phone's menu: open it, tap the destination (the sheet closes on its own). */
async function navTap(name: string): Promise<void> {
  await page.getByRole("complementary", { name: "Application" }).getByRole("button", { name: /^Menu/ }).tap();
  await page.getByRole("dialog", { name: "Menu" }).getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true }).tap();
  await page.getByRole("dialog", { name: "Menu" }).waitFor({ state: "detached" });
}

const historyDrawer = () => page.getByRole("dialog", { name: "Conversation history" });
const openHistory = () => page.getByRole("button", { name: "Open history" });

describe("the page at phone size (390×844, touch)", () => {
  acceptance(SPEC, "at phone size the history is a drawer: closed at first, opened from the header, closed by its backdrop, Esc or picking a conversation", async () => {
    const first = await conversationWithReply("Drawer first", "first words");
    await conversationWithReply("Drawer second", "second words");
    await openPhone(`/chat/${first}`);
    await ui(page).lastReply().getByText("echo: first words").waitFor();
    // Closed by default: the thread has the screen.
    expect(await historyDrawer().count()).toBe(0);
    await shotAll(page, "p01-chat-thread");

    // The header button opens it, focus moves in; the backdrop (outside the sheet) closes it.
    await openHistory().tap();
    await historyDrawer().waitFor();
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    // The open conversation is the current row.
    expect(await historyDrawer().getByRole("link", { name: /Drawer first/ }).getAttribute("aria-current")).toBe("page");
    await shotAll(page, "p02-drawer-open");
    await page.touchscreen.tap(PHONE.width - 20, PHONE.height / 2);
    await historyDrawer().waitFor({ state: "detached" });
    // Focus goes back to what opened it.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Open history");

    // Esc closes it.
    await openHistory().tap();
    await historyDrawer().waitFor();
    // Each row's ⋯ menu is there without hover (a phone has none).
    expect(await historyDrawer().getByRole("button", { name: "More actions for Drawer second" }).isVisible()).toBe(true);
    await page.keyboard.press("Escape");
    await historyDrawer().waitFor({ state: "detached" });

    // Picking a conversation opens it and closes the drawer.
    await openHistory().tap();
    await historyDrawer().getByRole("link", { name: /Drawer second/ }).tap();
    await page.waitForURL((u) => !u.pathname.endsWith(first));
    await ui(page).lastReply().getByText("echo: second words").waitFor();
    await historyDrawer().waitFor({ state: "detached" });
    // "New chat" from the drawer also closes it.
    await openHistory().tap();
    await historyDrawer().getByRole("link", { name: "New chat" }).tap();
    await page.getByRole("combobox", { name: "Agent" }).waitFor();
    await historyDrawer().waitFor({ state: "detached" });
  });

  acceptance(SPEC, "at phone size the conversation's ⋯ menu is on screen and renames, archives and deletes", async () => {
    const id = await conversationWithReply("A conversation with a rather long title that would push the menu away", "menu please");
    await openPhone(`/chat/${id}`);
    const more = page.getByRole("button", { name: "More actions", exact: true });
    await more.waitFor();
    const box = (await more.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await expectNoOverflow("conversation header");
    await more.tap();
    await page.getByRole("menuitem", { name: "Rename" }).tap();
    const title = page.getByRole("textbox", { name: "Conversation title" });
    await title.fill("Short");
    await title.press("Enter");
    await page.getByRole("heading", { name: "Short", level: 1 }).waitFor();
    expect((await d.api.get(`/chat/conversations/${id}`)).body.title).toBe("Short");
    await more.tap();
    await shotAll(page, "p03-header-menu");
    await page.getByRole("menuitem", { name: "Archive" }).tap();
    await page.getByText("This conversation is archived.").waitFor();
    expect((await d.api.get(`/chat/conversations/${id}`)).body.archived_at).not.toBeNull();
    await more.tap();
    await page.getByRole("menuitem", { name: "Delete" }).tap();
    await page.getByRole("dialog", { name: "Delete conversation?" }).getByRole("button", { name: "Delete" }).tap();
    await page.waitForURL((u) => u.pathname === "/chat");
    expect((await d.api.get(`/chat/conversations/${id}`)).status).toBe(404);
  });

  acceptance(SPEC, "at phone size a queued message is dragged by touch to a new place and the daemon's queue follows", async () => {
    const id = await conversationWithQueue("Touch reorder");
    await openPhone(`/chat/${id}`);
    const { queue } = ui(page);
    await queue.getByRole("listitem").nth(2).waitFor();
    await shotAll(page, "p04-queue-rows");
    await dragReady();
    const sub = await d.subscribe(id);
    // Drag the third row's grip above the first row.
    const grip = page.getByRole("button", { name: "Move queued message 3", exact: true });
    const from = await centre(grip);
    const firstRow = await queue.getByRole("listitem").first().boundingBox();
    await touchDrag(from, { x: from.x, y: firstRow!.y + 4 });
    await sub.waitFor((e) => e.type === "queue_changed" && e.pending.map((p) => p.text).join() === "queued three,queued one,queued two");
    sub.close();
    expect(await queueTexts(id)).toEqual(["queued three", "queued one", "queued two"]);
    await queue.getByRole("listitem").first().getByText("queued three").waitFor();
    expect(await queue.getByRole("listitem").allTextContents()).toEqual([
      expect.stringContaining("queued three"),
      expect.stringContaining("queued one"),
      expect.stringContaining("queued two"),
    ]);
    // While a row is being edited it says that it keeps its place (issue 22 B).
    await page.getByRole("button", { name: "Edit queued message 2", exact: true }).tap();
    await queue.getByText(/it keeps its place/).waitFor();
    await expectNoOverflow("queue while editing");
    await shotAll(page, "p05-queue-editing");
    await d.api.post(`/chat/conversations/${id}/interrupt`);
  });

  acceptance(SPEC, "at phone size no page is wider than the screen", async () => {
    // Something on every page: a conversation with long words and an expanded tool card, and
    // a row in each table.
    const longPath = "/home/owner/projects/a-very-long-folder-name-that-never-breaks/src/with/deeply/nested/file-name-without-spaces.ts";
    const id = (await d.api.post("/chat/conversations", { agent_key: "scripted", title: "Overflow check" })).body.id as string;
    const sub = await d.subscribe(id);
    await d.api.post(`/chat/conversations/${id}/messages`, {
      text: script(
        { text: `Reading ${longPath} now: averyveryverylongwordwithoutanyspacesatallthatmustwrapsomewhereonaphone.` },
        { tool: { id: "t1", name: "mcp__coffer__coffer__recall", input: { file_path: longPath, query: "x".repeat(200) }, output: `${"y".repeat(300)}\n${longPath}` } },
        { text: "Done." },
      ),
    });
    await sub.waitFor((e) => e.type === "turn_done");
    sub.close();
    await d.api.post("/memory", { text: "The owner prefers tabs over spaces in every TypeScript project they keep.", scope: "project", project: "/home/owner/projects/a-very-long-folder-name-that-never-breaks" });
    await d.api.put("/credentials/anthropic-key", { secret: "sk-test-not-a-real-key" });
    await d.api.post("/connections", { name: "Anthropic through the office proxy", wire: "anthropic", base_url: "http://127.0.0.1:9/v1", model: "claude-sonnet-4-5-20250929", credential_ref: "anthropic-key" });
    await d.api.post("/knowledge", { name: "handbook", description: "The team handbook, imported from the wiki export of last spring." });
    await d.api.post("/mcp/servers", { name: "filesystem", transport: "stdio", command: "/usr/local/bin/some-mcp-server-with-a-long-name", args: ["--root", longPath], enabled: false });
    mkdirSync(join(d.home, "skills", "release-notes"), { recursive: true });
    writeFileSync(join(d.home, "skills", "release-notes", "SKILL.md"), "---\nname: release-notes\ndescription: Write release notes from merged pull requests, grouped by area, with links.\n---\nbody\n");

    await openPhone(`/chat/${id}`);
    await ui(page).lastReply().getByText("Done.").waitFor();
    await page.getByRole("button", { name: /: .*, done$/ }).tap();
    await ui(page).lastReply().getByText(/^y+/).waitFor();
    await expectNoOverflow("chat with an open tool card");
    await shotAll(page, "p06-chat-tool-card");

    // The draft: the working directory can be set at phone size.
    await page.goto(`${d.daemon.url}/chat`);
    const cwd = page.getByRole("textbox", { name: "Working directory" });
    await cwd.waitFor();
    expect(await cwd.isVisible()).toBe(true);
    await cwd.fill("/tmp");
    await page.getByText("In /tmp").waitFor();
    await expectNoOverflow("draft");
    await shotAll(page, "p07-draft");
    // …and the new conversation is created with it (the scripted test agent keeps only a
    // model, so the request is what shows the folder was sent).
    const created = page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname === "/api/v1/chat/conversations");
    await sendFromComposer(page, "where am I");
    expect((await created).postDataJSON()).toMatchObject({ agent_config: { cwd: "/tmp" } });
    await page.waitForURL(/\/chat\/[^/]+$/);

    const pages: [string, string][] = [
      ["/vault/skills", "Skills"],
      ["/vault/memory", "Memory"],
      ["/vault/knowledge", "Knowledge"],
      ["/vault/mcp", "MCP servers"],
      ["/vault/mcp/log", "Tool calls log"],
      ["/settings/connections", "LLM Connections"],
      ["/settings/credentials", "Credentials"],
      ["/settings/channels", "Channels"],
      ["/settings/data", "Data"],
    ];
    for (const [path, name] of pages) {
      // Through the app's own navigation: the phone's menu sheet.
      await navTap(name);
      await page.waitForURL((u) => u.pathname === path);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      await page.getByRole("status", { name: /^Loading/ }).waitFor({ state: "detached" });
      await expectNoOverflow(path);
      await shotAll(page, `p08${path.replace(/\//g, "-")}`);
    }
    // The memory fact's row actions are on screen, not cut off.
    await navTap("Memory");
    const edit = page.getByRole("button", { name: /^Edit fact/ });
    await edit.waitFor();
    const box = (await edit.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  });

  test("at phone size the top bar's theme button steps system → light → dark → system and says which is next", async () => {
    await openPhone();
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    // The browser prefers light: System shows light.
    const bar = page.getByRole("complementary", { name: "Application" });
    expect(await bar.getByRole("radiogroup", { name: "Theme" }).isVisible()).toBe(false);
    await bar.getByRole("button", { name: "Theme: System. Switch to light theme" }).tap();
    await bar.getByRole("button", { name: "Theme: Light. Switch to dark theme" }).tap();
    await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
    await shot(page, "p10-theme-dark-top-bar-390");
    const cycle = bar.getByRole("button", { name: "Theme: Dark. Switch to system theme" });
    const box = (await cycle.boundingBox())!;
    expect(box.x + box.width, "the theme button is on screen").toBeLessThanOrEqual(PHONE.width);
    await cycle.tap();
    await bar.getByRole("button", { name: "Theme: System. Switch to light theme" }).waitFor();
    expect(await theme()).toBe("light");
    expect(await page.evaluate(() => localStorage.getItem("coffer.theme"))).toBe("system");
    await shot(page, "p10-theme-system-top-bar-390");
  });
});

describe("the theme on the desktop", () => {
  test("the desktop rail keeps its three theme buttons (the cycling one is for narrow widths)", async () => {
    await openDesktop();
    const rail = page.getByRole("complementary", { name: "Application" });
    const radios = rail.getByRole("radiogroup", { name: "Theme" }).getByRole("radio");
    expect(await radios.count()).toBe(3);
    for (const r of await radios.all()) expect(await r.isVisible()).toBe(true);
    expect(await rail.getByRole("button", { name: /^Theme: / }).isVisible()).toBe(false);
    await rail.getByRole("radio", { name: "Dark theme" }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
    await shot(page, "p11-rail-foot-1440-dark");
    // The icon-only rail (768–1023 px) has no room for three: the cycling button stands in.
    await page.setViewportSize({ width: 900, height: 800 });
    await rail.getByRole("button", { name: "Theme: Dark. Switch to system theme" }).waitFor();
    expect(await rail.getByRole("radiogroup", { name: "Theme" }).isVisible()).toBe(false);
    expect(await rail.getByRole("button", { name: "Keyboard shortcuts" }).isVisible()).toBe(true);
    await shot(page, "p11-rail-foot-900-dark");
  });
});

describe("between phone and desktop", () => {
  // Between phone and desktop (a tablet, a half-screen window) the headers keep every control
  // on screen: at 900 px the draft bar once pushed the working directory past the right edge.
  test("at 900 px the draft bar and a conversation's header keep every control on screen", async () => {
    const id = await conversationWithReply("Tablet width header", "hello");
    ({ context, page } = await newPage(browser, { width: 900, height: 800 }));
    await page.goto(d.openUrl);
    await page.getByRole("navigation", { name: "Main" }).waitFor();
    const rightEdge = async (name: string, role: "textbox" | "button" | "combobox") => {
      const box = await page.getByRole(role, { name, exact: true }).boundingBox();
      if (!box) throw new Error(`${name} is not shown`);
      return box.x + box.width;
    };
    await page.getByRole("textbox", { name: "Working directory" }).waitFor();
    expect(await rightEdge("Working directory", "textbox")).toBeLessThanOrEqual(900);
    expect(await rightEdge("Agent", "combobox")).toBeLessThanOrEqual(900);
    await expectNoOverflow("the draft at 900 px");
    await shot(page, "p12-draft-900");
    await page.goto(`${d.daemon.url}/chat/${id}`);
    await ui(page).lastReply().waitFor();
    expect(await rightEdge("More actions", "button")).toBeLessThanOrEqual(900);
    await expectNoOverflow("a conversation at 900 px");
    await shot(page, "p12-conversation-900");
  });
});

describe("the queue on the desktop", () => {
  acceptance(SPEC, "a queued message is dragged by mouse to a new place and the daemon's queue follows", async () => {
    const id = await conversationWithQueue("Mouse reorder");
    await openDesktop();
    await page.goto(`${d.daemon.url}/chat/${id}`);
    const { queue } = ui(page);
    await queue.getByRole("listitem").nth(2).waitFor();
    await dragReady();
    const sub = await d.subscribe(id);
    // The first row goes below the last.
    await queue.getByRole("listitem").first().hover();
    const from = await centre(page.getByRole("button", { name: "Move queued message 1", exact: true }));
    const last = (await queue.getByRole("listitem").last().boundingBox())!;
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x, last.y + last.height - 4, { steps: 12 });
    await shot(page, "p09-queue-dragging-desktop");
    await page.mouse.up();
    await sub.waitFor((e) => e.type === "queue_changed" && e.pending.map((p) => p.text).join() === "queued two,queued three,queued one");
    expect(await queueTexts(id)).toEqual(["queued two", "queued three", "queued one"]);
    // The drop was announced.
    await page.getByRole("status").filter({ hasText: "Moved to position 3 of 3" }).waitFor({ state: "attached" });
    // The keyboard handle still moves rows and says so.
    await page.getByRole("button", { name: "Move queued message 3", exact: true }).focus();
    await page.keyboard.press("ArrowUp");
    await queue.getByRole("listitem").nth(1).getByText("queued one").waitFor();
    await page.getByRole("status").filter({ hasText: "Moved to position 2 of 3" }).waitFor();
    await sub.waitFor((e) => e.type === "queue_changed" && e.pending.map((p) => p.text).join() === "queued two,queued one,queued three");
    sub.close();
    expect(await queueTexts(id)).toEqual(["queued two", "queued one", "queued three"]);
    await d.api.post(`/chat/conversations/${id}/interrupt`);
  });
});
