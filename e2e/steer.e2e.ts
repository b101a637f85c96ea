import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { makeAgentRig, type AgentRig } from "../packages/daemon/test/fakes/agent-rig.js";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { launchBrowser, newPage, shot, shotAll } from "./support/browser.js";
import { script, startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { sendFromComposer, ui } from "./support/ui.js";

let d: E2eDaemon;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
});
beforeEach(async () => {
  ({ context, page } = await newPage(browser));
  await page.goto(d.openUrl);
  await page.getByRole("combobox", { name: "Agent" }).selectOption("scripted");
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") await shot(page, `failed-${ctx.task.name.replace(/\W+/g, "-")}`);
  await context.close();
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

describe("Chat page: steer or queue (scripted agent)", () => {
  test("while a turn runs Enter queues, Ctrl+Enter steers into the turn, and a queued row's Send now steers it", async () => {
    const { composer, queue, thread, lastReply } = ui(page);
    // The turn reads two steered messages, then ends.
    await sendFromComposer(page, script({ text: "working " }, { await_steer: true }, { await_steer: true }, { text: " finished" }));
    await page.waitForURL(/\/chat\/[^/]+$/);
    await lastReply().getByText("working").waitFor();

    // Ctrl+Enter: into the running turn, shown where it landed.
    await composer.fill("use tabs");
    await page.getByRole("button", { name: "Steer" }).waitFor();
    await composer.press("Control+Enter");
    await lastReply().getByText("steered: use tabs").waitFor();
    await thread.getByText("use tabs", { exact: true }).waitFor();

    // Enter: queued, not steered; then "Send now" on its row steers it.
    await composer.fill("and spaces");
    await composer.press("Enter");
    await queue.getByText("and spaces").waitFor();
    await shot(page, "steer-queued-row");
    await page.getByRole("button", { name: "Send queued message 1 now" }).click();
    await lastReply().getByText("steered: and spaces finished").waitFor();
    await queue.waitFor({ state: "detached" });
    await shot(page, "steer-done");

    // Reloaded, the thread holds the same timeline: the reply split around each steered message.
    await page.reload();
    const replies = ui(page).replies;
    await ui(page).lastReply().getByText("steered: and spaces finished").waitFor();
    expect(await replies.count()).toBe(3);
    expect(await ui(page).thread.getByText("use tabs", { exact: true }).count()).toBe(1);
  });
});

const ONE_CARD =
  "a steer before, during or after a tool call leaves one tool card with its real outcome and the steered message where it entered the turn, alike live, reloaded, in chat show and stored";

/** Where an element sits on the page, top edge: the thread's order is its vertical order. */
async function topOf(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error("not on screen");
  return box.y;
}

// The real Claude Code CLI on the daemon's hermetic PATH, against our fake Anthropic server: the
// Bash tool blocks on a FIFO, so the steer lands while its card says "running".
describe("Chat page: a steer while a tool runs (real Claude Code CLI)", () => {
  let rig: AgentRig<"claude_code">;
  let claude: E2eDaemon;
  beforeAll(async () => {
    rig = await makeAgentRig("claude_code");
    claude = await startE2eDaemon(rig.env);
  }, 60_000);
  afterAll(async () => {
    await claude?.stop();
    await rig?.close();
  });

  acceptance("022-screens-true", ONE_CARD, async () => {
    const fifo = join(rig.workDir, "e2e-steer-gate");
    execFileSync("mkfifo", [fifo]);
    await page.goto(claude.openUrl);
    await page.getByRole("combobox", { name: "Agent" }).selectOption("claude_code");
    const { composer, thread } = ui(page);
    await sendFromComposer(page, `RUN: cat ${fifo}`);
    await page.waitForURL(/\/chat\/[^/]+$/);
    const cards = thread.getByRole("button", { name: /^Bash: / });
    await thread.getByRole("button", { name: /^Bash: .*, running$/ }).waitFor({ timeout: 45_000 });

    await composer.fill("also say STEER-e2e");
    await composer.press("Control+Enter");
    const steered = thread.getByText("also say STEER-e2e", { exact: true });
    const mark = thread.getByText("Steered", { exact: true });
    await mark.waitFor();
    expect(await topOf(mark)).toBeGreaterThan(await topOf(steered)); // under its bubble
    // The tool still runs: its card stays "running" (never "failed"), one card, above the steered message.
    expect(await thread.getByRole("button", { name: /^Bash: .*, running$/ }).count()).toBe(1);
    expect(await cards.count()).toBe(1);
    expect(await topOf(cards.first())).toBeLessThan(await topOf(steered));
    await shotAll(page, "steer-tool-running");

    // Reloaded while the tool still runs: the same — the card running, once, above the marked message.
    await page.reload();
    await thread.getByRole("button", { name: /^Bash: .*, running$/ }).waitFor();
    await mark.waitFor();
    expect(await cards.count()).toBe(1);
    expect(await topOf(cards.first())).toBeLessThan(await topOf(steered));

    await writeFile(fifo, "tool-output\n");
    const done = thread.getByRole("button", { name: /^Bash: .*, done$/ });
    await done.waitFor({ timeout: 45_000 });
    // The CLI hands the steered text to the model with the tool result; the fake answers it.
    await thread.getByText(/Fake reply to: .*also say STEER-e2e/s).waitFor({ timeout: 45_000 });
    const live = { cards: await cards.count(), done: await done.count(), order: (await topOf(done)) < (await topOf(steered)) };
    expect(live).toEqual({ cards: 1, done: 1, order: true });
    await done.click();
    await thread.getByText("tool-output", { exact: true }).first().waitFor();
    await shotAll(page, "steer-tool-done");

    // Reloaded: the same one card with its outcome, the steered message marked, in the same place.
    await page.reload();
    await thread.getByText(/Fake reply to: .*also say STEER-e2e/s).waitFor();
    const reloaded = thread.getByRole("button", { name: /^Bash: .*, done$/ });
    const again = thread.getByText("also say STEER-e2e", { exact: true });
    await mark.waitFor();
    expect(await mark.count()).toBe(1);
    expect({ cards: await cards.count(), done: await reloaded.count(), order: (await topOf(reloaded)) < (await topOf(again)) }).toEqual(live);
    expect(await thread.getByRole("button", { name: /failed$/ }).count()).toBe(0);
  }, 150_000);
});
