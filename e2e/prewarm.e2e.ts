import type { SystemStatsOut } from "@coffer/protocol";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest";
import { makeAgentRig, type AgentRig } from "../packages/daemon/test/fakes/agent-rig.js";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { launchBrowser, newPage, shot } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { ui } from "./support/ui.js";

// The real Claude Code CLI against the fake Anthropic server (claude-code.e2e.ts has the set-up).
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
  if (ctx.task.result?.state === "fail") await shot(page, `failed-prewarm-${ctx.task.name.replace(/\W+/g, "-")}`);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
  await rig?.close();
});

const stats = async () => (await d.api.get("/system/stats")).body as SystemStatsOut;

describe("pre-warm on intent (real claude)", () => {
  acceptance(
    "016-speed-footprint",
    "typing in a new chat starts the agent's process before Send; the first message runs on it",
    async () => {
      await page.getByRole("combobox", { name: "Agent" }).selectOption("claude_code");
      const hinted = page.waitForResponse((r) => r.url().endsWith("/chat/agents/claude_code/prewarm") && r.request().method() === "POST");
      await ui(page).composer.pressSequentially("say hi", { delay: 20 });
      const answer = await hinted;
      expect(answer.status()).toBe(202);
      expect(await answer.json()).toEqual({ state: "started" });
      const spare = (await stats()).warm_processes.find((p) => p.agent_key === "claude_code");
      expect(spare).toMatchObject({ conversation_id: null, busy: false });

      await ui(page).composer.press("Enter");
      await page.waitForURL(/\/chat\/[^/]+$/);
      await ui(page).lastReply().getByText("Fake reply to: say hi").waitFor({ timeout: 45_000 });
      const id = decodeURIComponent(page.url().split("/chat/")[1]!);
      const warm = (await stats()).warm_processes.filter((p) => p.agent_key === "claude_code");
      expect(warm).toEqual([expect.objectContaining({ pid: spare!.pid, conversation_id: id })]);
    },
    120_000,
  );
});
