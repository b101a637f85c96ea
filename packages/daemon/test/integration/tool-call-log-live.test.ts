/**
 * Issue 22, K: each tool call through the gateway is logged with the agent and conversation its
 * credential stands for, and published at once on the list stream (`tool_call_logged`), in the
 * shape the log route lists. Real daemon, real MCP clients over HTTP, real SQLite file.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpInvocationOut, ToolCallLoggedEvent } from "@coffer/protocol";
import { afterEach, describe, expect, test } from "vitest";
import { GatewayCredentials } from "../../src/application/gateway/gateway-credentials.js";
import { gatewayClient } from "../fixtures/mcp/gateway-client.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";
import { registerEchoTool } from "../support/echo-tool.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function start(): Promise<TestDaemon> {
  const t = await startTestDaemon({
    extraBuiltinTools: registerEchoTool,
  });
  cleanups.push(() => t.close());
  return t;
}

async function client(t: TestDaemon, token: string, userAgent: string): Promise<Client> {
  const c = await gatewayClient(t.daemon.url, token, userAgent);
  cleanups.push(() => c.close());
  return c;
}

const listed = async (t: TestDaemon) => McpInvocationOut.array().parse((await t.api.get("/mcp/invocations")).body.invocations);

describe("the tool-call log names the agent and conversation, live", { timeout: 30_000 }, () => {
  test("an agent's call is published on the list stream with its agent and conversation, as the log lists it", async () => {
    const t = await start();
    const res = await t.api.post("/chat/conversations", { agent_key: "scripted", title: "Deploy notes" });
    const conversationId = res.body.id as string;
    const list = await t.subscribeList();
    cleanups.push(async () => list.close());

    const agent = await client(t, new GatewayCredentials(t.daemon.token).issue("scripted", conversationId), "claude-code/2.0.0");
    await agent.callTool({ name: "coffer__test_echo", arguments: { n: 1 } });
    const frame = await list.waitFor((e) => (e.type as string) === "tool_call_logged");
    const { invocation } = ToolCallLoggedEvent.parse(frame.event);
    expect(invocation).toMatchObject({
      tool: "coffer__test_echo",
      server: "coffer",
      outcome: "ok",
      agent_key: "scripted",
      conversation: { id: conversationId, title: "Deploy notes" },
    });
    // The event and the log route send one shape: the page's live row is the row it would fetch.
    expect((await listed(t))[0]).toEqual(invocation);

    // The owner's own client (the daemon token) is no conversation's.
    const owner = await client(t, t.daemon.token, "my-editor/1.0");
    const before = list.events.length;
    await owner.callTool({ name: "coffer__test_echo", arguments: { n: 2 } });
    const second = ToolCallLoggedEvent.parse((await list.waitFor((e) => (e.type as string) === "tool_call_logged", before)).event).invocation;
    expect(second).toMatchObject({ agent_key: null, conversation: null, caller: expect.stringContaining("my-editor") });

    // A deleted conversation's calls stay logged, without a link to what is gone.
    expect((await t.api.delete(`/chat/conversations/${conversationId}`)).status).toBeLessThan(300);
    const rows = await listed(t);
    expect(rows.find((r) => r.id === invocation.id)).toMatchObject({ agent_key: "scripted", conversation: null });
  });
});
