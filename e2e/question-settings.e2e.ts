import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import type { Locator } from "playwright-core";
import { launchBrowser, newPage, settled, shot, SHOT_SIZES } from "./support/browser.js";
import { script, startE2eDaemon, type E2eDaemon } from "./support/daemon.js";

// Issue 27: Settings → Alerts → "When the agent waits for you" sets when an open question reaches
// the phone and when it is reminded (GET|PUT /settings/questions), at both sizes, light and dark;
// and a question's notification is taken down once it is answered elsewhere. As in alerts.e2e.ts,
// headless Chromium reports every page visible, so visibility is driven by an init script, and
// window.Notification is wrapped to record each notification and whether it was closed (the real
// constructor still runs) — the only parts not real.
const INIT = `
  (() => {
    let hidden = false;
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (hidden ? "hidden" : "visible") });
    window.__setHidden = (h) => { hidden = h; document.dispatchEvent(new Event("visibilitychange")); };
    window.__shown = [];
    const Real = window.Notification;
    if (!Real) return;
    class Recorded extends Real {
      constructor(title, options) {
        super(title, options);
        const entry = { title, closed: false };
        window.__shown.push(entry);
        const close = this.close.bind(this);
        this.close = () => { entry.closed = true; close(); };
      }
    }
    window.Notification = Recorded;
  })();
`;

let d: E2eDaemon;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
  let context;
  ({ context, page } = await newPage(browser));
  await context.addInitScript(INIT);
  await context.grantPermissions(["notifications"], { origin: d.daemon.url });
  await page.goto(d.openUrl);
}, 60_000);
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") await shot(page, `failed-question-settings-${ctx.task.name.replace(/\W+/g, "-")}`);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

describe("question settings", () => {
  test("Settings → Alerts shows the defaults, refuses a negative value before sending it, and saves minutes and never-remind", async () => {
    await page.getByRole("link", { name: "Alerts" }).click();
    const form = page.getByRole("form", { name: "When the agent waits for you" });
    const phone = form.getByLabel("Tell my phone after (minutes)");
    const remind = form.getByLabel("Remind me after (minutes)");
    await phone.waitFor();
    expect(await phone.inputValue()).toBe("5");
    expect(await remind.inputValue()).toBe("60");

    await phone.fill("-2");
    await form.getByText("Whole minutes, 0 or more.").waitFor();
    expect(await form.getByRole("button", { name: "Save" }).isDisabled()).toBe(true);

    await phone.fill("0");
    await remind.fill("30");
    await form.getByRole("button", { name: "Save" }).click();
    await form.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    expect((await d.api.get("/settings/questions")).body).toEqual({ phone_after_minutes: 0, remind_after_minutes: 30 });
    await shotForm(form);

    await form.getByLabel("Never remind").check();
    expect(await remind.isDisabled()).toBe(true);
    await form.getByRole("button", { name: "Save" }).click();
    await expect.poll(async () => (await d.api.get("/settings/questions")).body.remind_after_minutes).toBe(null);
  });

  test("a question's notification on a hidden page is taken down once it is answered elsewhere", async () => {
    await page.getByRole("link", { name: "Alerts" }).click();
    await page.getByRole("checkbox", { name: "Browser notifications" }).check();
    await page.getByText("On in this browser").waitFor();
    await page.waitForFunction(() => document.documentElement.dataset.listStream === "open");
    await page.evaluate(() => (window as any).__setHidden(true));
    const id = (await d.api.post("/chat/conversations", { agent_key: "scripted", title: "Away" })).body.id as string;
    const sub = await d.subscribe(id);
    const question = { header: "", text: "Go ahead?", options: [{ label: "yes", description: "" }], multi_select: false, allow_free_text: false };
    await d.api.post(`/chat/conversations/${id}/messages`, { text: script({ ask: { questions: [question] } }) });
    const qid = ((await sub.waitFor((e) => e.type === "question")).event as unknown as { question_id: string }).question_id;
    await page.waitForFunction(() => (window as any).__shown.some((n: any) => n.title === "Needs you: Away"));
    expect(await page.evaluate(() => (window as any).__shown.find((n: any) => n.title === "Needs you: Away").closed)).toBe(false);
    expect((await d.api.post(`/chat/conversations/${id}/questions/${qid}/answer`, { answers: [{ selected: ["yes"] }] })).status).toBe(204);
    await page.waitForFunction(() => (window as any).__shown.find((n: any) => n.title === "Needs you: Away").closed === true);
    sub.close();
    await page.evaluate(() => (window as any).__setHidden(false));
  }, 60_000);
});

/** Like shotAll, with the form scrolled into view at each size (on a phone it sits below the fold). */
async function shotForm(form: Locator): Promise<void> {
  for (const size of SHOT_SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
      await form.scrollIntoViewIfNeeded();
      await settled(page);
      await shot(page, `question-settings-${size.tag}-${scheme}`);
    }
  }
  await page.setViewportSize({ width: SHOT_SIZES[0].width, height: SHOT_SIZES[0].height });
}
