import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { launchBrowser, newPage, shot, shotAll } from "./support/browser.js";
import { script, startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { sendFromComposer, ui } from "./support/ui.js";

/**
 * Issue 22 B: pressing ↑ on a queued message and typing while the running turn ends must not
 * let the message run as it was. The turn ends when the test steers a message into it through
 * the API (the scripted agent's await_steer), so the page's edit is open when it happens.
 */
const SCENARIO = "while any surface edits a queued message the queue stops in front of it, saving keeps its place, and the hold lapses when the editor goes away";

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

const userTexts = async (id: string) =>
  ((await d.api.get(`/chat/conversations/${id}/messages`)).body.messages as { role: string; content: { text: string }[] }[])
    .filter((m) => m.role === "user")
    .map((m) => m.content[0]!.text);

describe("editing a queued message holds the queue", () => {
  for (const size of [
    { tag: "desktop", width: 1440, height: 900, touch: false },
    { tag: "phone", width: 390, height: 844, touch: true },
  ]) {
    acceptance("022-screens-true", `${SCENARIO}`, async () => {
      ({ context, page } = await newPage(browser, { width: size.width, height: size.height, touch: size.touch }));
      await page.goto(d.openUrl);
      await page.getByRole("combobox", { name: "Agent" }).selectOption("scripted");
      const { composer, queue } = ui(page);
      const turn = script({ text: "deploying " }, { await_steer: true }, { text: " done" });
      await sendFromComposer(page, turn);
      await page.waitForURL(/\/chat\/[^/]+$/);
      const id = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
      const sub = await d.subscribe(id);
      await ui(page).lastReply().getByText("deploying").waitFor();
      await sendFromComposer(page, "deploy prod");
      await queue.getByRole("listitem").first().waitFor();

      // ↑ opens it; the daemon marks it held before the turn ends.
      await composer.press("ArrowUp");
      await expect.poll(() => composer.inputValue()).toBe("deploy prod");
      await sub.waitFor((e) => e.type === "queue_changed" && e.pending[0]?.editing?.by === "web");
      await composer.press("End");
      for (let i = 0; i < "deploy prod".length - "deploy ".length; i++) await composer.press("Backspace");
      await composer.pressSequentially("stag");

      // The running turn ends while the owner is still typing: the queue stops in front of the edit.
      await d.api.post(`/chat/conversations/${id}/messages`, { text: "wrap up", delivery: "steer" });
      await sub.waitFor((e) => e.type === "turn_done");
      await page.getByText(/Waiting for your edit · 1 queued/).waitFor();
      await queue.getByText("Waiting for your edit", { exact: true }).waitFor();
      expect(((await d.api.get(`/chat/conversations/${id}/pending`)).body.pending as { text: string }[]).map((p) => p.text)).toEqual(["deploy prod"]);
      expect(sub.types().filter((t) => t === "turn_start")).toHaveLength(1);
      if (size.tag === "desktop") await shotAll(page, "q22-waiting-for-your-edit");
      else await shot(page, "q22-waiting-for-your-edit-phone-touch");

      await composer.pressSequentially("ing");
      expect(await composer.inputValue()).toBe("deploy staging");
      await composer.press("Enter");
      // Only the edited text runs, once, in its place.
      await sub.waitForCount((e) => e.type === "turn_done", 2);
      await ui(page).lastReply().getByText("echo: deploy staging").waitFor();
      await queue.waitFor({ state: "detached" });
      expect(await userTexts(id)).toEqual([turn, "wrap up", "deploy staging"]);
      expect(sub.types().filter((t) => t === "turn_start")).toHaveLength(2);
      sub.close();
    }, 90_000);
  }

  /** A conversation whose turn waits for a steer, "deploy prod" queued behind it, opened for editing on `page`. */
  async function editingBehindTurn(daemon: E2eDaemon) {
    ({ context, page } = await newPage(browser));
    await page.goto(daemon.openUrl);
    await page.getByRole("combobox", { name: "Agent" }).selectOption("scripted");
    await sendFromComposer(page, script({ text: "deploying " }, { await_steer: true }, { text: " done" }));
    await page.waitForURL(/\/chat\/[^/]+$/);
    const id = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
    const sub = await daemon.subscribe(id);
    await ui(page).lastReply().getByText("deploying").waitFor();
    await sendFromComposer(page, "deploy prod");
    await ui(page).queue.getByRole("listitem").first().waitFor();
    // The page knows its hold once the answer to its POST is in (the daemon's frame can come first):
    // a tab closed before that has no id to release, and its hold lapses with the lease instead.
    const holdAnswer = page.waitForResponse((r) => r.request().method() === "POST" && /\/hold$/.test(new URL(r.url()).pathname));
    await ui(page).composer.press("ArrowUp");
    await sub.waitFor((e) => e.type === "queue_changed" && e.pending[0]?.editing?.by === "web");
    await holdAnswer;
    await ui(page).composer.pressSequentially(" (half-edited)");
    return { id, sub };
  }

  acceptance("022-screens-true", SCENARIO, async () => {
    // A closed tab: its pagehide sends the release (keepalive), long before the 20 s lease ends.
    const { id, sub } = await editingBehindTurn(d);
    const closedAt = Date.now();
    const from = sub.events.length; // frames from before the close (the message queued unheld) do not count
    await page.close({ runBeforeUnload: true });
    const released = await sub.waitFor((e) => e.type === "queue_changed" && e.pending.length === 1 && !e.pending[0]!.editing, from);
    expect(Date.now() - closedAt).toBeLessThan(10_000);
    expect(released).toBeDefined();
    await d.api.post(`/chat/conversations/${id}/messages`, { text: "wrap up", delivery: "steer" });
    const started = await sub.waitForCount((e) => e.type === "turn_start", 2);
    expect((started[1]!.event as { user_message: { content: { text: string }[] } }).user_message.content[0]!.text).toBe("deploy prod");
    sub.close();
  }, 60_000);

  acceptance("022-screens-true", SCENARIO, async () => {
    // A lost network: the page cannot renew, so the hold lapses (a 2 s lease here) and the queue runs on.
    const lossy = await startE2eDaemon({ COFFER_QUEUE_EDIT_LEASE_MS: "2000" });
    try {
      const { id, sub } = await editingBehindTurn(lossy);
      await context!.setOffline(true);
      await lossy.api.post(`/chat/conversations/${id}/messages`, { text: "wrap up", delivery: "steer" });
      await sub.waitFor((e) => e.type === "turn_done");
      const started = await sub.waitForCount((e) => e.type === "turn_start", 2);
      expect((started[1]!.event as { user_message: { content: { text: string }[] } }).user_message.content[0]!.text).toBe("deploy prod");
      sub.close();
    } finally {
      await context?.close();
      context = null;
      await lossy.stop();
    }
  }, 60_000);
});
