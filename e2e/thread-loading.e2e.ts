import type { Browser, Page, Route } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { SseSubscription } from "../packages/daemon/test/support/http-client.js";
import { launchBrowser, newPage, shotAll } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { ui } from "./support/ui.js";

// Opening a conversation whose messages are slow to come: the thread shows its shape (a sent
// bubble, a reply's lines) instead of a blank that reads as "no messages", then the messages.
let d: E2eDaemon;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
  ({ page } = await newPage(browser));
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

test("a conversation's messages still loading show the thread's shape, then the messages", async () => {
  const id = (await d.api.post("/chat/conversations", { agent_key: "scripted", title: "Slow to load" })).body.id as string;
  const sub = await SseSubscription.open(d.daemon.url, d.daemon.token, `/chat/conversations/${id}/events`);
  await d.api.post(`/chat/conversations/${id}/messages`, { text: "hello there" });
  await sub.waitForCount((e) => e.type === "turn_done", 1);
  sub.close();

  await page.goto(d.openUrl);
  await page.getByRole("navigation", { name: "Main" }).waitFor();
  // Hold the thread's messages (not the list's) until the loading state has been seen.
  const held: Route[] = [];
  let holding = true;
  await page.route(`**/chat/conversations/${id}/messages?*`, (route) => void (holding ? held.push(route) : route.continue()));
  await page.goto(`${d.daemon.url}/chat/${id}`);
  await page.getByRole("region", { name: "Slow to load" }).waitFor(); // the header is there…
  const loading = page.getByRole("status", { name: "Loading messages" });
  await loading.waitFor({ state: "visible" }); // …and the thread is not a blank
  await shotAll(page, "thread-loading");

  holding = false;
  for (const route of held) await route.continue();
  await ui(page).lastReply().getByText("echo: hello there").waitFor();
  expect(await loading.count()).toBe(0);
}, 60_000);
