import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect } from "vitest";
import { GatewayCredentials } from "../packages/daemon/src/application/gateway/gateway-credentials.js";
import { gatewayClient } from "../packages/daemon/test/fixtures/mcp/gateway-client.js";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { launchBrowser, newPage, shot, shotAll } from "./support/browser.js";
import { startE2eDaemon, type E2eDaemon } from "./support/daemon.js";

let d: E2eDaemon;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const clients: Client[] = [];

beforeAll(async () => {
  [d, browser] = await Promise.all([startE2eDaemon(), launchBrowser()]);
});
beforeEach(async () => {
  ({ context, page } = await newPage(browser));
  await page.goto(d.openUrl);
  await page.getByRole("combobox", { name: "Agent" }).waitFor(); // the token exchange has landed
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail") await shot(page, `toollog-failed-${ctx.task.name.replace(/\W+/g, "-")}`);
  await context.close();
  for (const c of clients.splice(0)) await c.close();
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

/**
 * The agent's side of a tool call, as Claude Code makes it: a real MCP client on the daemon's
 * /mcp with the gateway-only credential the daemon launches the agent with (derived from the
 * daemon token, docs/decisions.md "Secrets and audit") and Claude Code's User-Agent. The real
 * `claude` CLI is not needed to make one call; its own path is covered in mcp-agents.test.ts.
 */
async function agentClient(agentKey: string, conversationId: string): Promise<Client> {
  const c = await gatewayClient(d.daemon.url, new GatewayCredentials(d.daemon.token).issue(agentKey, conversationId), "claude-code/2.0.0");
  clients.push(c);
  return c;
}

describe("the Tool calls log", () => {
  acceptance("022-screens-true", "the tool-call log names tools and agents as the chat does, links each call to its conversation and updates live", async () => {
    const created = await d.api.post("/chat/conversations", { agent_key: "claude_code", title: "Release checklist" });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await page.goto(`${d.daemon.url}/vault/mcp/log`);
    const table = page.getByRole("table", { name: "Tool calls" });
    await page.getByText("No tool calls yet.", { exact: false }).waitFor();
    // The page listens on the list stream before the call is made (it has no replay).
    await page.waitForFunction(() => document.documentElement.dataset.listStream === "open");

    // A call made while the page is open shows up on its own: no Refresh.
    const agent = await agentClient("claude_code", id);
    await agent.callTool({ name: "coffer__recall", arguments: { query: "deploy" } });
    const row = table.getByRole("row").filter({ hasText: "Release checklist" });
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain("Claude Code");
    expect(text).toContain("coffer · recall");
    expect(text).not.toContain("coffer__recall");
    expect(text).not.toContain("claude-code");
    // The owner's own MCP client (the daemon token) is named as it names itself, with no conversation.
    const owner = await gatewayClient(d.daemon.url, d.daemon.token, "my-editor/1.0");
    clients.push(owner);
    await owner.callTool({ name: "coffer__recall", arguments: { query: "tabs" } });
    await table.getByRole("row").filter({ hasText: "my-editor" }).waitFor();
    expect(await table.getByRole("row").count()).toBe(3); // the header and two calls, newest first
    expect(await table.getByRole("row").nth(1).innerText()).toContain("my-editor");
    await shotAll(page, "22k-tool-call-log");

    // Each agent call links to its conversation.
    await row.getByRole("link", { name: "Release checklist" }).click();
    await page.waitForURL((u) => u.pathname === `/chat/${id}`);
  });
});
