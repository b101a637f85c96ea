import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { hermeticPath } from "../packages/daemon/test/fakes/agent-rig.js";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { launchBrowser, newPage, shot } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { ui } from "./support/ui.js";

/**
 * A first run: a daemon with only the real agents registered (no scripted one) and neither
 * `claude` nor `codex` on its PATH — then one appears while the page is open.
 */
let d: E2eDaemon;
let browser: Browser;
let context: BrowserContext | undefined;
let page: Page;
const bin = mkdtempSync(join(tmpdir(), "coffer-e2e-bin-"));

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon({ PATH: hermeticPath(bin), COFFER_TEST_NO_SCRIPTED: "1" }), launchBrowser()]);
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") await shot(page, `failed-${ctx.task.name.replace(/\W+/g, "-")}`);
  await context?.close();
  context = undefined;
  rmSync(join(bin, "claude"), { force: true });
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
  rmSync(bin, { recursive: true, force: true });
});

async function open(options: Parameters<typeof newPage>[1] = {}): Promise<void> {
  ({ context, page } = await newPage(browser, options));
  // The history starts closed, so the phone shots show the first-run screen (the drawer is issue 15's layout part).
  await context.addInitScript(() => localStorage.setItem("coffer.historyOpen", "false"));
  await page.goto(d.openUrl);
  await page.getByRole("heading", { name: "Install an agent to start" }).waitFor();
}

describe("first run, no agent on PATH", () => {
  acceptance(
    "015-page-basics",
    "first run with no agent on PATH shows how to install and sign in to each agent, and disables what cannot work",
    async () => {
      await open();
      const { composer } = ui(page);
      // Nothing that needs an agent can be used.
      await expect(page.getByRole("combobox", { name: "Agent" }).isDisabled()).resolves.toBe(true);
      await expect(page.getByRole("combobox", { name: "Model" }).isDisabled()).resolves.toBe(true);
      await expect(page.getByRole("textbox", { name: "Working directory" }).isDisabled()).resolves.toBe(true);
      await expect(composer.isDisabled()).resolves.toBe(true);
      await page.getByText("Install an agent to send a message").waitFor();
      // Per agent: install and sign-in commands, as code; no markdown backticks leak as text.
      const claude = page.getByRole("region", { name: "Set up Claude Code" });
      const codex = page.getByRole("region", { name: "Set up Codex" });
      expect(await claude.locator("code").allTextContents()).toEqual(["npm install -g @anthropic-ai/claude-code", "claude", "/login", "ANTHROPIC_API_KEY"]);
      expect(await codex.locator("code").allTextContents()).toEqual(["npm install -g @openai/codex", "codex login", "OPENAI_API_KEY"]);
      expect(await page.locator("main").innerText()).not.toContain("`");
      // Copyable: the button puts the command itself on the clipboard.
      await codex.getByRole("button", { name: "Copy: codex login" }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("codex login");
      // The retention default is said up front, with the way to keep everything.
      await page.getByText(/Conversations idle for 7 days are archived, and deleted 30 days later/).waitFor();
      expect(await page.getByRole("link", { name: "Keep them forever in Settings → Data" }).getAttribute("href")).toBe("/settings/data");
      await shot(page, "15b-first-run-1440-light");
    },
  );

  acceptance(
    "015-page-basics",
    "an agent installed while the page is in another tab is picked up when the owner comes back to it",
    async () => {
      await open();
      // Installed meanwhile (a stand-in executable: availability is the daemon's PATH).
      writeFileSync(join(bin, "claude"), "#!/bin/sh\nexit 0\n");
      chmodSync(join(bin, "claude"), 0o755);
      const recheck = page.waitForResponse((r) => r.url().endsWith("/api/v1/chat/agents") && r.status() === 200);
      // The owner comes back to the tab: the page asks the daemon again by itself.
      await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
      await recheck;
      await page.getByRole("heading", { name: "What should Claude Code work on?" }).waitFor();
      const agent = page.getByRole("combobox", { name: "Agent" });
      await expect(agent.isEnabled()).resolves.toBe(true);
      expect(await agent.inputValue()).toBe("claude_code");
      await expect(ui(page).composer.isEnabled()).resolves.toBe(true);
      // Codex is still missing: its setup stays one click away.
      await page.getByText("Codex is not installed — how to set it up").click();
      await page.getByRole("region", { name: "Set up Codex" }).getByText("codex login").waitFor();
      await shot(page, "15b-one-agent-installed-1440-light");

      // Gone again: a window focus (not only visibilitychange) re-checks too.
      rmSync(join(bin, "claude"));
      const again = page.waitForResponse((r) => r.url().endsWith("/api/v1/chat/agents"));
      await page.evaluate(() => window.dispatchEvent(new Event("focus")));
      await again;
      await page.getByRole("heading", { name: "Install an agent to start" }).waitFor();
    },
  );

  test("the first-run screen at phone size and in the dark theme", async () => {
    for (const [width, height] of [[1440, 900], [390, 844]] as const) {
      for (const colorScheme of ["light", "dark"] as const) {
        await open({ width, height, colorScheme });
        // The setup cards fit the screen (the header's own fit is the phone layout's test).
        const box = await page.getByRole("region", { name: "Set up Codex" }).boundingBox();
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(width);
        await shot(page, `15b-first-run-${width}-${colorScheme}`);
        await context!.close();
        context = undefined;
      }
    }
  });

  test("the draft page names the default workspace the agent will start in, at both sizes, light and dark", async () => {
    writeFileSync(join(bin, "claude"), "#!/bin/sh\nexit 0\n");
    chmodSync(join(bin, "claude"), 0o755);
    const { workspace } = (await d.api.get("/chat/agents")).body as { workspace: string };
    expect(workspace).toMatch(/\/home\/coffer-workspace$/); // under the daemon's HOME, not in the data dir
    for (const [width, height] of [[1440, 900], [390, 844]] as const) {
      for (const colorScheme of ["light", "dark"] as const) {
        ({ context, page } = await newPage(browser, { width, height, colorScheme }));
        await context.addInitScript(() => localStorage.setItem("coffer.historyOpen", "false"));
        await page.goto(d.openUrl);
        await page.getByRole("heading", { name: "What should Claude Code work on?" }).waitFor();
        await page.getByText(`In ${workspace}, the default workspace`).waitFor();
        // A long path wraps: the page never scrolls sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await shot(page, `21-draft-workspace-${width}-${colorScheme}`);
        await context.close();
        context = undefined;
      }
    }
  });
});
