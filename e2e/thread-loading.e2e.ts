import type { Route } from "playwright-core";
import { expect, test } from "vitest";
import { newPage, shotAll } from "./support/browser.js";
import { browserRig } from "./support/rig.js";
import { ui } from "./support/ui.js";

// Opening a conversation whose messages are slow to come: the thread shows its shape (a sent
// bubble, a reply's lines) instead of a blank that reads as "no messages", then the messages.
const rig = browserRig();

test("a conversation's messages still loading show the thread's shape, then the messages", async () => {
  const { d } = rig;
  const { page } = await newPage(rig.browser);
  rig.pages.push(page);
  const id = (await d.api.post("/chat/conversations", { agent_key: "scripted", title: "Slow to load" })).body.id as string;
  const sub = await d.subscribe(id);
  await d.api.post(`/chat/conversations/${id}/messages`, { text: "hello there" });
  await sub.waitFor((e) => e.type === "turn_done");
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
