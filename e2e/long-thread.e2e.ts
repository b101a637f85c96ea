import { writeFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { SseSubscription } from "../packages/daemon/test/support/http-client.js";
import { launchBrowser, newPage, SCREENSHOTS, shot } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";

// Bar: a 2,000-message thread opens in ≤ 1 s and scrolls without jank (the list is virtualised).
const TURNS = 1000; // = 2,000 messages
const OPEN_BUDGET_MS = 1000;
// "Without jank", as a budget this machine (2 shared cores, headless Chromium, no GPU) holds:
// while flinging to the top (paging older messages in), 95 % of frames within 50 ms (20 fps
// floor) and no single main-thread task over 250 ms (a visible freeze). See docs/decisions.md.
const FRAME_P95_BUDGET_MS = 50;
const LONG_TASK_BUDGET_MS = 250;

let d: E2eDaemon;
let browser: Browser;
let id: string;

function userText(i: number): string {
  if (i === TURNS - 1) return "LAST-MESSAGE marker";
  if (i % 5 === 0) return `Step ${i}: run this\n\n\`\`\`ts\nconst step${i}: number = ${i} * 2;\nconsole.log(step${i});\n\`\`\``;
  if (i % 7 === 0) return `Step ${i}, a list:\n\n- first point about ${i}\n- second point\n- third, with \`inline code\``;
  return `Step ${i}: a plain question about item ${i}, long enough to wrap onto a second line in a typical window width, like real chat.`;
}

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
  id = (await d.api.post("/chat/conversations", { agent_key: "scripted", title: "Two thousand messages" })).body.id;
  // Seed through the real API: every send queues behind the running turn; the echo agent answers each.
  const sub = await SseSubscription.open(d.daemon.url, d.daemon.token, `/chat/conversations/${id}/events`);
  for (let i = 0; i < TURNS; i++) await d.api.post(`/chat/conversations/${id}/messages`, { text: userText(i) });
  await sub.waitForCount((e) => e.type === "turn_done", TURNS);
  sub.close();
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  return { n: s.length, p50: +q(0.5).toFixed(1), p95: +q(0.95).toFixed(1), p99: +q(0.99).toFixed(1), max: +(s[s.length - 1] ?? 0).toFixed(1) };
}

async function openThread(page: Page) {
  await page.goto(`${d.daemon.url}/?token=${d.daemon.token}`);
  await page.getByRole("combobox", { name: "Agent" }).waitFor();
  await page.goto(`${d.daemon.url}/chat/${id}`);
  await page.waitForFunction(() => document.querySelector('[role="log"]')?.textContent?.includes("echo: LAST-MESSAGE marker"), null, { polling: "raf" });
  return page.evaluate(() => {
    const log = document.querySelector('[role="log"]')!;
    const data = performance.getEntriesByType("resource").find((e) => e.name.includes("/messages?")) as PerformanceResourceTiming | undefined;
    return {
      visibleAt: performance.now(),
      dataArrivedAt: data?.responseEnd ?? NaN,
      atBottom: log.scrollHeight - log.scrollTop - log.clientHeight < 2,
      mountedRows: log.querySelectorAll("[data-index]").length,
    };
  });
}

/** Open from the history list, as the owner does: click → the last screen is painted. */
async function openFromHistory(page: Page) {
  await page.getByRole("link", { name: "New chat" }).first().click();
  await page.getByRole("combobox", { name: "Agent" }).waitFor();
  const t0 = await page.evaluate(() => performance.now());
  await page.getByRole("navigation", { name: "Conversations" }).getByRole("link", { name: /Two thousand messages/ }).click();
  await page.waitForFunction(() => document.querySelector('[role="log"]')?.textContent?.includes("echo: LAST-MESSAGE marker"), null, { polling: "raf" });
  return (await page.evaluate(() => performance.now())) - t0;
}

test(`a 2,000-message thread opens in ≤ 1 s at the bottom and scrolls to the top without jank (frame p95 ≤ ${FRAME_P95_BUDGET_MS} ms, no task > ${LONG_TASK_BUDGET_MS} ms)`, async () => {
  const { page } = await newPage(browser);
  const cold = await openThread(page); // a fresh browser profile: nothing cached or compiled yet
  const warm = await openThread(page); // a reload: assets cached, like a returning owner
  const inApp = await openFromHistory(page);
  await shot(page, "13-long-thread-bottom");

  // Fling to the top one frame at a time, paging older messages in as it goes.
  const scroll = await page.evaluate(async () => {
    const log = document.querySelector<HTMLElement>('[role="log"]')!;
    const longTasks: number[] = [];
    const obs = new PerformanceObserver((list) => list.getEntries().forEach((e) => longTasks.push(e.duration)));
    obs.observe({ type: "longtask", buffered: false });
    const frames: number[] = [];
    const started = performance.now();
    let last = started;
    let still = 0;
    await new Promise<void>((done) => {
      const step = (now: number) => {
        frames.push(now - last);
        last = now;
        const before = log.scrollTop;
        log.scrollTop = Math.max(0, before - 300);
        still = log.scrollTop === 0 && !document.querySelector('[role="log"] .thread-loading') ? still + 1 : 0;
        if (still > 30 || now - started > 60_000) done();
        else requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
    obs.disconnect();
    return { frames: frames.slice(1), longTasks, ms: performance.now() - started, rendered: log.textContent?.includes("Step 0: run this") ?? false };
  });
  await shot(page, "14-long-thread-top");

  const figures = {
    messages: TURNS * 2,
    open_from_history_ms: Math.round(inApp),
    open_page_load_warm_ms: Math.round(warm.visibleAt),
    open_page_load_cold_ms: Math.round(cold.visibleAt),
    last_screen_after_data_ms: Math.round(warm.visibleAt - warm.dataArrivedAt),
    opened_at_bottom: warm.atBottom,
    mounted_rows_at_open: warm.mountedRows,
    scroll_to_top_ms: Math.round(scroll.ms),
    frame_ms: stats(scroll.frames),
    frames_over_50ms: scroll.frames.filter((f) => f > 50).length,
    long_tasks: stats(scroll.longTasks),
  };
  console.log(`long-thread figures: ${JSON.stringify(figures)}`);
  writeFileSync(`${SCREENSHOTS}long-thread-figures.json`, `${JSON.stringify(figures, null, 2)}\n`);

  expect(warm.atBottom).toBe(true);
  expect(warm.mountedRows).toBeLessThan(60); // virtualised: one screen plus overscan, not 2,000 rows
  expect(figures.open_from_history_ms).toBeLessThanOrEqual(OPEN_BUDGET_MS);
  expect(figures.open_page_load_warm_ms).toBeLessThanOrEqual(OPEN_BUDGET_MS);
  expect(scroll.rendered).toBe(true); // reached the very first message
  expect(figures.frame_ms.p95, `frame p95 (figures: ${JSON.stringify(figures.frame_ms)})`).toBeLessThanOrEqual(FRAME_P95_BUDGET_MS);
  expect(figures.long_tasks.max, `longest task (figures: ${JSON.stringify(figures.long_tasks)})`).toBeLessThanOrEqual(LONG_TASK_BUDGET_MS);
  // The same freeze bound on the frames themselves, in case the long-task observer reports nothing.
  expect(figures.frame_ms.max, `longest frame (figures: ${JSON.stringify(figures.frame_ms)})`).toBeLessThanOrEqual(LONG_TASK_BUDGET_MS);
}, 120_000);
