import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { makeAgentRig, type AgentRig } from "../packages/daemon/test/fakes/agent-rig.js";
import { launchBrowser, newPage, shot, shotAll } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";
import { sendFromComposer, ui } from "./support/ui.js";
import { humanSize } from "@coffer/protocol";
import { gradientPng } from "./support/images.js";

// The real Claude Code CLI against our fake Anthropic server: the model's CALL directive makes the
// CLI call coffer__share_file over MCP, exactly as a real model would ask it to.
let rig: AgentRig<"claude_code">;
let d: E2eDaemon;
let browser: Browser;
let page: Page;
const workspace = mkdtempSync(join(tmpdir(), "coffer-e2e-share-"));

beforeAll(async () => {
  rig = await makeAgentRig("claude_code");
  [d, browser] = await Promise.all([startE2eDaemon(rig.env), launchBrowser()]);
  ({ page } = await newPage(browser));
  await page.goto(d.openUrl);
  await page.waitForFunction(() => localStorage.getItem("coffer.session") !== null);
}, 60_000);
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") await shot(page, `failed-share-${ctx.task.name.replace(/\W+/g, "-")}`);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
  await rig?.close();
});

const call = (args: Record<string, unknown>) => `CALL: mcp__coffer__coffer__share_file ${JSON.stringify(args)}`;

describe("a file the agent shares, on the page", () => {
  test("an image reply shows inline and a PDF as a download link, both still there after a reload", async () => {
    writeFileSync(join(workspace, "latency-chart.png"), gradientPng(480, 270));
    const pdf = `%PDF-1.4\n${"the weekly report\n".repeat(200)}`;
    writeFileSync(join(workspace, "report.pdf"), pdf);
    const id = (await d.api.post("/chat/conversations", { agent_key: "claude_code", title: "Weekly report", agent_config: { cwd: workspace } })).body.id as string;
    await page.goto(`${d.daemon.url}/chat/${id}`);
    await ui(page).composer.waitFor();

    // The model's answer after the call holds: the image must show while the turn still runs.
    await sendFromComposer(page, `${call({ path: "latency-chart.png", caption: "p95 latency, last 7 days" })}\nTHEN GATE share-live`);
    const image = ui(page).lastReply().getByRole("list", { name: "Attachments" }).getByRole("img", { name: "latency-chart.png" });
    await image.waitFor({ timeout: 45_000 });
    // The agent's line for it, under it (as the phone gets it as the photo's caption).
    await ui(page).lastReply().getByRole("figure").getByText("p95 latency, last 7 days").waitFor();
    await ui(page).lastReply().getByText(/Tool said:/).waitFor({ timeout: 45_000 });
    expect(await ui(page).lastReply().getAttribute("aria-busy")).toBe("true");
    await shot(page, "25-share-file-live");
    rig.fake.open("share-live");
    await ui(page).lastReply().getByText(/released/).waitFor({ timeout: 45_000 });

    await sendFromComposer(page, call({ path: "report.pdf" }));
    const chip = ui(page).lastReply().getByRole("list", { name: "Attachments" }).getByRole("button", { name: /report\.pdf/ });
    await chip.waitFor({ timeout: 45_000 });
    await ui(page).lastReply().getByText(/Tool said:/).waitFor({ timeout: 45_000 });
    expect(await chip.textContent()).toContain(humanSize(pdf.length));
    const [download] = await Promise.all([page.waitForEvent("download"), chip.click()]);
    expect(download.suggestedFilename()).toBe("report.pdf");

    // From the stored thread, not the live stream: a reload shows the same files on the replies.
    await page.reload();
    await ui(page).composer.waitFor();
    const files = page.getByRole("list", { name: "Attachments" });
    await files.getByRole("img", { name: "latency-chart.png" }).waitFor();
    await files.getByRole("button", { name: /report\.pdf/ }).waitFor();
    await files.getByRole("figure").getByText("p95 latency, last 7 days").waitFor(); // stored, not only live
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>(".attachment-thumb img")].every((i) => i.complete && i.naturalWidth > 0));
    expect(await page.locator("article.msg-assistant .msg-attachments").count()).toBe(2);
    await shotAll(page, "25-share-file-reply");
  }, 150_000);
});
