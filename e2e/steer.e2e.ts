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
  // When the turn settles, its live rows give way to the stored ones: for a moment the element
  // is re-mounted and has no box. Wait until it is shown again (bounded by waitFor's timeout).
  for (let tries = 0; tries < 5; tries++) {
    await locator.waitFor();
    const box = await locator.boundingBox();
    if (box) return box.y;
  }
  throw new Error("not on screen");
}

// The real agent CLIs on the daemon's hermetic PATH, against our fake model servers: the tool
// call blocks on a FIFO, so the steer lands while its card says "running".
const AGENT = {
  claude_code: { send: (fifo: string) => `RUN: cat ${fifo}`, tool: "Bash" },
  codex: { send: (fifo: string) => `USE_TOOL cat ${fifo}`, tool: "shell" },
} as const;

describe.each(["claude_code", "codex"] as const)("Chat page: a steer while a tool runs (real %s CLI)", (agent) => {
  let rig: AgentRig<typeof agent>;
  let real: E2eDaemon;
  beforeAll(async () => {
    rig = await makeAgentRig(agent);
    real = await startE2eDaemon(rig.env);
  }, 60_000);
  afterAll(async () => {
    await real?.stop();
    await rig?.close();
  });

  acceptance("022-screens-true", ONE_CARD, async () => {
    const { send, tool } = AGENT[agent];
    const card = (word: string) => thread.getByRole("button", { name: new RegExp(`^${tool}: .*, ${word}$`) });
    const fifo = join(rig.workDir, "e2e-steer-gate");
    execFileSync("mkfifo", [fifo]);
    await page.goto(real.openUrl);
    await page.getByRole("combobox", { name: "Agent" }).selectOption(agent);
    const { composer, thread } = ui(page);
    await sendFromComposer(page, send(fifo));
    await page.waitForURL(/\/chat\/[^/]+$/);
    const cards = thread.getByRole("button", { name: new RegExp(`^${tool}: `) });
    await card("running").waitFor({ timeout: 45_000 });

    await composer.fill("also say STEER-e2e");
    await composer.press("Control+Enter");
    const steered = thread.getByText("also say STEER-e2e", { exact: true });
    const mark = thread.getByText("Steered", { exact: true });
    await mark.waitFor();
    expect(await topOf(mark)).toBeGreaterThan(await topOf(steered)); // under its bubble
    // The tool still runs: its card stays "running" (never "failed"), one card, above the steered message.
    expect(await card("running").count()).toBe(1);
    expect(await cards.count()).toBe(1);
    expect(await topOf(cards.first())).toBeLessThan(await topOf(steered));
    await shotAll(page, `steer-tool-running-${agent}`);

    // Reloaded while the tool still runs: the same — the card running, once, above the marked message.
    await page.reload();
    await card("running").waitFor();
    await mark.waitFor();
    expect(await cards.count()).toBe(1);
    expect(await topOf(cards.first())).toBeLessThan(await topOf(steered));

    await writeFile(fifo, "tool-output\n");
    const done = card("done");
    await done.waitFor({ timeout: 45_000 });
    // The agent reads the steered text after the tool's output; the fake's answer names it.
    const answer = ui(page).lastReply().getByText(/STEER-e2e/);
    await answer.waitFor({ timeout: 45_000 });
    const live = { cards: await cards.count(), done: await done.count(), order: (await topOf(done)) < (await topOf(steered)) };
    expect(live).toEqual({ cards: 1, done: 1, order: true });
    await done.click();
    await done.locator("xpath=..").getByText(/tool-output/).first().waitFor(); // its Output, opened
    await shotAll(page, `steer-tool-done-${agent}`);

    // Reloaded: the same one card with its outcome, the steered message marked, in the same place.
    await page.reload();
    await answer.waitFor();
    await mark.waitFor();
    expect(await mark.count()).toBe(1);
    expect({ cards: await cards.count(), done: await done.count(), order: (await topOf(done)) < (await topOf(steered)) }).toEqual(live);
    expect(await thread.getByRole("button", { name: /failed$/ }).count()).toBe(0);
  }, 150_000);
});
