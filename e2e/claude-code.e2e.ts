import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { makeAgentRig, type AgentRig } from "../packages/daemon/test/fakes/agent-rig.js";
import { launchBrowser, newPage, shot } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { sendFromComposer, ui } from "./support/ui.js";

// The real Claude Code CLI (the SDK's bundled native binary) on the daemon's hermetic PATH,
// talking to our fake Anthropic Messages server on 127.0.0.1: nothing leaves the machine.
let rig: AgentRig<"claude_code">;
let d: E2eDaemon;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  rig = await makeAgentRig("claude_code");
  [d, browser] = await Promise.all([startE2eDaemon(rig.env), launchBrowser()]);
  ({ page } = await newPage(browser));
  await page.goto(d.openUrl);
}, 60_000);
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") await shot(page, `failed-claude-${ctx.task.name.replace(/\W+/g, "-")}`);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
  await rig?.close();
});

describe("Chat page with the real Claude Code CLI", () => {
  test("create → send → stream → tool card → interrupt keeps the partial reply", async () => {
    const agent = page.getByRole("combobox", { name: "Agent" });
    await agent.selectOption("claude_code");
    await sendFromComposer(page, "RUN: echo hello-from-bash");
    await page.waitForURL(/\/chat\/[^/]+$/);
    // The CLI ran the Bash tool for real; its call shows as a card, then the model's answer.
    const card = page.getByRole("button", { name: /^Bash: echo hello-from-bash, done/ });
    await card.waitFor({ timeout: 45_000 });
    await card.click();
    await ui(page).lastReply().getByText("hello-from-bash", { exact: true }).first().waitFor();
    await ui(page).lastReply().getByText(/Tool said: hello-from-bash/).waitFor({ timeout: 45_000 });
    await shot(page, "15-claude-code-tool");
    // Its mark is the one Claude Code's provider names in GET /chat/agents, in the header and its history row.
    expect(await page.locator(".thread-header svg.agent-mark").first().getAttribute("data-glyph")).toBe("asterisk");
    expect(await page.locator(".history-row-current svg.agent-mark").first().getAttribute("data-glyph")).toBe("asterisk");

    await sendFromComposer(page, "HOLD");
    await ui(page).lastReply().getByText("partial reply", { exact: false }).waitFor({ timeout: 45_000 });
    await ui(page).stop.click();
    await ui(page).lastReply().getByText("Stopped").waitFor({ timeout: 30_000 });
    expect(await ui(page).lastReply().textContent()).toContain("partial reply");
    await shot(page, "16-claude-code-stopped");
  }, 150_000);
});
