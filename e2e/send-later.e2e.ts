import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { launchBrowser, newPage, shot, shotAll } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { ui } from "./support/ui.js";

/**
 * Send later from the composer (issue 27) on a real daemon with the real clock: nothing here waits
 * for a due time — a preset, a picked date and time, the queue row's time changed, then sent now
 * (in its place) and another cancelled. Settings → Schedules and the thread's clock mark are
 * schedules.e2e.ts; together they prove the page-schedules scenario.
 */
const SCENARIO = "Chromium: scheduling from the composer, Settings → Schedules and the clock marks";

let d: E2eDaemon;
let browser: Browser;
let context: BrowserContext | null = null;
let page: Page;

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") await shot(page, `failed-${ctx.task.name.replace(/\W+/g, "-")}`);
  await context?.close();
  context = null;
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

type Pending = { id: string; text: string; later?: { send_at: string; when: string; due: boolean } };
const pendingOf = async (id: string) => (await d.api.get(`/chat/conversations/${id}/pending`)).body.pending as Pending[];
/** "2026-12-08T09:30" for a datetime-local field: `ms` in the browser's zone (the e2e's, as the daemon's test machine). */
const localInput = (ms: number) => {
  const t = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${t.getFullYear()}-${p(t.getMonth() + 1)}-${p(t.getDate())}T${p(t.getHours())}:${p(t.getMinutes())}`;
};

describe("send later from the composer", () => {
  acceptance("027-schedules", SCENARIO, async () => {
    ({ context, page } = await newPage(browser));
    const conv = (await d.api.post("/chat/conversations", { agent_key: "scripted", title: "Morning notes" })).body as { id: string };
    await page.goto(d.openUrl);
    await page.getByRole("navigation", { name: "Main" }).waitFor();
    await page.goto(`${d.daemon.url}/chat/${conv.id}`);
    const { composer, queue } = ui(page);
    const later = page.getByRole("button", { name: "Send later" });

    // Nothing typed: nothing to schedule.
    await composer.waitFor();
    expect(await later.isDisabled()).toBe(true);
    await composer.fill("good morning, summarise the night");
    await later.click();
    const panel = page.getByRole("dialog", { name: "Send later" });
    await panel.getByRole("button", { name: /^In 1 hour · / }).waitFor();
    await shotAll(page, "send-later-menu");
    const before = Date.now();
    await panel.getByRole("button", { name: /^In 1 hour · / }).click();
    await queue.getByRole("listitem").first().waitFor();
    expect(await composer.inputValue()).toBe("");
    const [first] = await pendingOf(conv.id);
    expect(first).toMatchObject({ text: "good morning, summarise the night", later: { when: "at", due: false } });
    expect(Date.parse(first!.later!.send_at) - before).toBeGreaterThan(59 * 60_000);

    // By keyboard: the clock, Tab to the date and time, Enter schedules it.
    const picked = new Date(Date.now() + 26 * 3_600_000);
    picked.setMinutes(30, 0, 0);
    await composer.fill("the weekly report");
    await later.focus();
    await page.keyboard.press("Enter");
    const field = panel.getByLabel("Pick a date and time");
    await field.waitFor();
    await field.fill(localInput(picked.getTime()));
    await field.press("Enter");
    await expect.poll(async () => (await pendingOf(conv.id)).length).toBe(2);
    expect((await pendingOf(conv.id))[1]).toMatchObject({ text: "the weekly report", later: { send_at: picked.toISOString() } });
    // Esc closes the panel and gives the focus back to the clock (the draft stays in the box).
    await composer.fill("a draft for later");
    await later.click();
    await panel.waitFor();
    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "detached" });
    expect(await later.evaluate((el) => el === document.activeElement)).toBe(true);
    await shotAll(page, "send-later-queue");

    // The row's time: change it, then send it now (in its place).
    const second = queue.getByRole("listitem").nth(1);
    await second.getByRole("button", { name: /^Scheduled: .*Change the time$/ }).click();
    const change = page.getByRole("dialog", { name: "Change the time" });
    const moved = new Date(picked.getTime() + 3_600_000);
    await change.getByLabel("Pick a date and time").fill(localInput(moved.getTime()));
    await shotAll(page, "send-later-change");
    await change.getByRole("button", { name: "Save time" }).click();
    await expect.poll(async () => (await pendingOf(conv.id))[1]?.later?.send_at).toBe(moved.toISOString());

    const sub = await d.subscribe(conv.id);
    await second.getByRole("button", { name: /^Scheduled: / }).click();
    await change.getByRole("button", { name: "Send now (in its place in the queue)" }).click();
    await sub.waitFor((e) => e.type === "turn_done");
    expect((await pendingOf(conv.id)).map((p) => p.text)).toEqual(["good morning, summarise the night"]);

    // Remove cancels a scheduled message like any queued one.
    await queue.getByRole("button", { name: "Remove queued message 1" }).click();
    await expect.poll(async () => (await pendingOf(conv.id)).length).toBe(0);
    sub.close();
  }, 180_000);
});
