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

test("Settings → Schedules → Morning brief: off by default, turned on at a time in the owner's zone, sent now", async () => {
  await page.goto(d.daemon.url);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Schedules", exact: true }).click();
  const block = page.getByLabel("Morning brief", { exact: true });
  const on = block.getByLabel("Send a brief each day");
  await on.waitFor();
  expect(await on.isChecked()).toBe(false);
  await block.getByText("Europe/Berlin").waitFor();
  // The box follows the saved settings (checked once the daemon answered), so a click, not check().
  await on.click();
  await block.getByText(/^Next: /).waitFor();
  await block.locator('input[type="time"]').fill("06:45");
  await expect.poll(async () => (await d.api.get("/settings/brief")).body).toMatchObject({ enabled: true, at: "06:45", to: { phone: true, page: true }, time_zone: "Europe/Berlin" });
  // Only the page: the phone box can go, and the page's box is then the last one left (locked on).
  await block.getByLabel("Phone").click();
  await expect.poll(async () => (await d.api.get("/settings/brief")).body.to).toEqual({ phone: false, page: true });
  // The lock follows the saved settings, which the page re-reads after the save answered.
  await expect.poll(() => block.getByLabel("This page's alerts").isDisabled()).toBe(true);
  await block.getByRole("button", { name: "Send it now" }).click();
  await page.getByText("Brief sent").waitFor();
  const sent = (await d.api.get("/audit?action=brief_sent")).body.entries;
  expect(sent[0].details).toMatchObject({ trigger: "now", page: true, phone_chats: 0 });
  await shotAll(page, "schedules-brief");
}, 120_000);
