import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, newPage, shot } from "./support/browser.js";
import { script, startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { ui } from "./support/ui.js";

// Issue 14's states on the page, with the scripted agent: the context gauge (shown only when
// the window is known) and screenshots of the question card, steer / Send now, retrying, and
// the plan-limit gauges with a parked queue — on a phone (390×844) and in the dark theme.
let d: E2eDaemon;
let browser: Browser;
const pages: Page[] = [];

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
}, 60_000);
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") for (const [i, p] of pages.entries()) await shot(p, `failed-owner-states-${i}`);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

async function open(variant: { colorScheme: "light" | "dark"; width?: number; height?: number }): Promise<Page> {
  const { page } = await newPage(browser, variant);
  pages.push(page);
  await page.goto(d.openUrl);
  await ui(page).composer.waitFor();
  return page;
}

async function conversation(title: string): Promise<string> {
  return (await d.api.post("/chat/conversations", { agent_key: "scripted", title })).body.id as string;
}

const QUESTION = {
  header: "Deploy",
  text: "Where should this go?",
  options: [
    { label: "Staging", description: "safe to try" },
    { label: "Production", description: "" },
  ],
  multi_select: false,
  allow_free_text: true,
};

describe("issue 14 states on the page", () => {
  test("[014-owner-in-the-loop] the conversation header shows a context gauge when the window is known, and none when it is not", async () => {
    const page = await open({ colorScheme: "light" });
    const known = await conversation("Context known");
    const sub = await d.subscribe(known);
    await d.api.post(`/chat/conversations/${known}/messages`, { text: script({ text: "read it all" }, { context: { used: 150_000, window: 200_000 } }) });
    await sub.waitFor((e) => e.type === "turn_done");
    sub.close();
    await page.goto(`${d.daemon.url}/chat/${known}`);
    const gauge = page.getByRole("meter", { name: "Context: 150k of 200k tokens (75%)" });
    await gauge.waitFor();
    expect(await gauge.getAttribute("aria-valuenow")).toBe("75");

    const unknown = await conversation("Context unknown");
    const sub2 = await d.subscribe(unknown);
    await d.api.post(`/chat/conversations/${unknown}/messages`, { text: script({ text: "no window" }, { context: { used: 1200, window: null } }) });
    await sub2.waitFor((e) => e.type === "turn_done");
    sub2.close();
    await page.goto(`${d.daemon.url}/chat/${unknown}`);
    await ui(page).lastReply().getByText("no window").waitFor();
    expect(await page.getByRole("meter", { name: /^Context:/ }).count()).toBe(0);
    await page.close();
  }, 60_000);

  for (const variant of [
    { name: "phone", colorScheme: "light" as const, width: 390, height: 844 },
    { name: "phone-dark", colorScheme: "dark" as const, width: 390, height: 844 },
    { name: "dark", colorScheme: "dark" as const },
  ]) {
    test(`issue 14 states, ${variant.name}: question card, retrying with Send now, plan-limit gauges and a parked queue`, async () => {
      const page = await open(variant);
      const { lastReply, queue } = ui(page);

      // The question card in place of Thinking.
      const asks = await conversation(`Asks (${variant.name})`);
      await page.goto(`${d.daemon.url}/chat/${asks}`);
      await d.api.post(`/chat/conversations/${asks}/messages`, { text: script({ ask: { questions: [QUESTION] } }) });
      await page.getByRole("form", { name: "The agent asks you" }).waitFor();
      await shot(page, `60-question-card-${variant.name}`);
      await d.api.post(`/chat/conversations/${asks}/interrupt`);

      // Retrying, with a message queued behind the turn and its Send now.
      const retries = await conversation(`Retries (${variant.name})`);
      await page.goto(`${d.daemon.url}/chat/${retries}`);
      await d.api.post(`/chat/conversations/${retries}/messages`, { text: script({ text: "Looking… " }, { retry: { attempt: 3, max: 6, message: "connection refused" } }, { hang: true }) });
      await lastReply().getByText("Retrying — attempt 3 of 6: connection refused").waitFor();
      await d.api.post(`/chat/conversations/${retries}/messages`, { text: "then run the tests" });
      await queue.getByText("then run the tests").waitFor();
      await page.getByRole("button", { name: "Send queued message 1 now" }).waitFor();
      await shot(page, `61-retrying-send-now-${variant.name}`);
      await d.api.post(`/chat/conversations/${retries}/interrupt`);

      // A plan limit: the header's gauges (plan windows, context) and the parked queue.
      const limited = await conversation(`Plan limit (${variant.name})`);
      await page.goto(`${d.daemon.url}/chat/${limited}`);
      const limits = { limits: { status: "rejected", window: "five_hour", used: 100, resetsInMs: 3_600_000 } };
      await d.api.post(`/chat/conversations/${limited}/messages`, {
        text: script({ context: { used: 172_000, window: 200_000 } }, limits, { error: { code: "plan_limit", message: "You've hit your 5-hour limit" } }),
      });
      await page.getByText(/You've hit your 5-hour limit/).first().waitFor();
      await d.api.post(`/chat/conversations/${limited}/messages`, { text: "after the limit" });
      await page.getByText(/^Paused until \S.* — plan limit · 1 waiting$/).waitFor();
      await page.getByRole("button", { name: "Resume now" }).waitFor();
      await shot(page, `62-plan-limit-parked-${variant.name}`);

      // Settings → Alerts.
      await page.goto(`${d.daemon.url}/settings/alerts`);
      await page.getByRole("table", { name: "Which events alert" }).waitFor();
      await shot(page, `63-alerts-settings-${variant.name}`);
      await page.close();
    }, 90_000);
  }
});
