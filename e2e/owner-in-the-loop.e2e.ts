import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { makeAgentRig, type AgentRig } from "../packages/daemon/test/fakes/agent-rig.js";
import { launchBrowser, newPage, shot } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { sendFromComposer, ui } from "./support/ui.js";

// Issue 14, parts 3 and 4, in Chromium with the real Claude Code CLI against the fake:
// a retry storm reads "Retrying — attempt n of 3: …" (the daemon's give-up, not the CLI's cap of 10) instead of "Thinking"; a plan limit shows as
// header gauges and a parked queue the owner can resume now. The CLI is signed in with an
// OAuth token (no API key), the only way it reports plan limits.
let rig: AgentRig<"claude_code">;
let d: E2eDaemon;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  rig = await makeAgentRig("claude_code", { env: { ANTHROPIC_API_KEY: "", CLAUDE_CODE_OAUTH_TOKEN: "fake-oauth-token", COFFER_TURN_RETRY_GIVE_UP: "3" } });
  [d, browser] = await Promise.all([startE2eDaemon(rig.env), launchBrowser()]);
  ({ page } = await newPage(browser));
  await page.goto(d.openUrl);
}, 60_000);
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") await shot(page, `failed-owner-loop-${ctx.task.name.replace(/\W+/g, "-")}`);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
  await rig?.close();
});

describe("the owner is never left guessing", () => {
  test("[014-owner-in-the-loop] the page shows the agent retrying, then why the turn stopped", async () => {
    await page.getByRole("combobox", { name: "Agent" }).selectOption("claude_code");
    await sendFromComposer(page, "OVERLOADED please");
    await page.waitForURL(/\/chat\/[^/]+$/);
    const retrying = ui(page).lastReply().getByTestId("retrying");
    await retrying.getByText(/^Retrying — attempt [123] of 3: API 529 overloaded$/).waitFor({ timeout: 45_000 });
    expect(await ui(page).lastReply().getByText(/^Thinking/).count()).toBe(0);
    await shot(page, "40-retrying");
    await page.getByText(/could not be reached after 3 attempts/).first().waitFor({ timeout: 60_000 });
    expect(await retrying.count()).toBe(0);
    // The failure is said once, in the reply.
    expect(await ui(page).lastReply().getByText(/could not be reached after 3 attempts/).count()).toBe(1);
    expect(await page.locator(".thread-foot").getByText(/could not be reached/).count()).toBe(0);
  }, 150_000);

  test("[014-owner-in-the-loop] a plan limit shows gauges and a parked queue the owner resumes now", async () => {
    rig.fake.planResetSeconds = 3600;
    await sendFromComposer(page, "PLAN_LIMIT please");
    await page.getByText(/You've hit your 5-hour limit/).first().waitFor({ timeout: 45_000 });
    const gauge = page.getByRole("meter", { name: /^5h plan window: 100% used · resets / });
    await gauge.waitFor({ timeout: 15_000 });
    await sendFromComposer(page, "after the limit");
    await page.getByText(/^Paused until \S.* — plan limit · 1 waiting$/).waitFor({ timeout: 15_000 });
    await shot(page, "41-plan-limit-parked");
    await page.getByRole("button", { name: "Resume now" }).click();
    await ui(page).lastReply().getByText("Fake reply to: after the limit").waitFor({ timeout: 45_000 });
  }, 150_000);
});
