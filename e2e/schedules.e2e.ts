import type { ScheduleListOut } from "@coffer/protocol";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { launchBrowser, newPage, shotAll } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";

// Settings → Schedules on a real daemon (real clock: nothing here waits for a due time; "Run now"
// sends through the same path a due run takes) and the clock mark in the thread.
let d: E2eDaemon;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon({ COFFER_TIME_ZONE: "Europe/Berlin" }), launchBrowser()]);
  ({ page } = await newPage(browser));
  await page.goto(d.openUrl);
  await page.getByRole("navigation", { name: "Main" }).waitFor();
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

test("add a daily heartbeat in Settings → Schedules, pause and resume it, run it now; the thread shows its clock mark", async () => {
  const conv = (await d.api.post("/chat/conversations", { agent_key: "scripted", title: "Nightly triage" })).body;
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Schedules", exact: true }).click();
  await page.getByText("No schedules yet.").waitFor();
  await shotAll(page, "schedules-empty");

  await page.getByRole("button", { name: "Add schedule" }).first().click();
  const form = page.getByRole("form", { name: "Add schedule" });
  await form.getByLabel("Name").fill("Morning triage");
  await form.getByLabel("Time").fill("07:00");
  await form.getByLabel("Prompt").fill("triage the failing tests");
  await form.getByLabel("Conversation", { exact: true }).selectOption(conv.id);
  await shotAll(page, "schedules-form");
  await form.getByRole("button", { name: "Add schedule" }).click();

  const card = page.getByRole("listitem", { name: "Morning triage" });
  await card.getByText("Daily at 07:00 · Europe/Berlin · Into “Nightly triage”").waitFor();
  const [s] = ((await d.api.get("/schedules")).body as ScheduleListOut).schedules;
  expect(s).toMatchObject({ name: "Morning triage", when: { preset: "daily_at", at: "07:00" }, target: { conversation_id: conv.id }, paused: false });

  await card.getByRole("button", { name: "Pause" }).click();
  await card.getByText("Paused", { exact: true }).waitFor();
  expect(((await d.api.get(`/schedules/${s!.id}`)).body as { paused: boolean }).paused).toBe(true);
  await card.getByRole("button", { name: "Resume" }).click();
  await card.getByText("Active", { exact: true }).waitFor();

  await card.getByRole("button", { name: "Run now" }).click();
  await card.getByText(/, sent$/).waitFor();
  await shotAll(page, "schedules-list");

  await page.goto(`${d.daemon.url}/chat/${conv.id}`);
  const mark = page.getByRole("img", { name: "scheduled" });
  await mark.waitFor();
  expect(await mark.getAttribute("title")).toBe("Sent by the schedule “Morning triage”");
  await shotAll(page, "schedules-clock-mark");
}, 120_000);
