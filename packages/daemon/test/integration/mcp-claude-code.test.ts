/**
 * The gateway end to end with the REAL `claude` CLI: the gateway is given to Claude Code on every turn
 * (SDK `mcpServers`), the fake Anthropic server asks for `mcp__coffer__coffer__recall`,
 * the memory fact comes back through /mcp, and the call shows in the thread.
 */
import { readFileSync } from "node:fs";
import { isTerminalEvent, type ChatEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startAgentHarness, type AgentHarness } from "../fakes/agent-harness.js";

let h: AgentHarness<"claude_code">;
beforeAll(async () => {
  h = await startAgentHarness("claude_code");
}, 30_000);
afterAll(() => h?.close(), 30_000);

const isTerminal = (e: ChatEvent) => isTerminalEvent(e);
const FACT = "The vault door code is BLUE-42";

describe("Claude Code uses Coffer's MCP gateway", () => {
  test("coffer__recall through /mcp brings a memory fact into the answer, shown as tool_call/tool_result", async () => {
    const api = h.daemon.api;
    expect((await api.post("/memory", { text: FACT, scope: "global" })).status).toBe(201);
    const id = await h.conversation({ model: "claude-sonnet-4-5" });
    const sub = await h.daemon.subscribe(id);
    await h.send(id, 'CALL: mcp__coffer__coffer__recall {"query":"vault door code"}');
    const done = await sub.waitFor(isTerminal);
    expect(done.event).toMatchObject({ type: "turn_done" });

    const call = sub.events.find((e) => e.event.type === "tool_call")!.event as any;
    const result = sub.events.find((e) => e.event.type === "tool_result")!.event as any;
    expect(call).toMatchObject({ tool_name: "mcp__coffer__coffer__recall", tool_input: { query: "vault door code" } });
    expect(result).toMatchObject({ tool_use_id: call.tool_use_id, error: null });
    expect(JSON.stringify(result.output)).toContain("BLUE-42");
    const answer = sub.events.filter((e) => e.event.type === "text_delta").map((e) => (e.event as any).text).join("");
    expect(answer).toContain("BLUE-42");

    const [, assistant] = await h.messages(id);
    expect(assistant.content.map((b: any) => b.type)).toEqual(["tool_use", "tool_result", "text"]);

    const log = await api.get("/mcp/invocations?tool=coffer__recall");
    expect(log.body.invocations[0]).toMatchObject({ caller: "claude-code", server: "coffer", outcome: "ok" });

    // The token travels in headers only: not on the CLI's command line, not to the model.
    const pid = h.provider.warmProcess(id)?.pid;
    expect(pid).toBeGreaterThan(0);
    expect(readFileSync(`/proc/${pid}/cmdline`, "utf8")).not.toContain(h.daemon.daemon.token);
    expect(JSON.stringify(h.fake.requests.map((r) => r.transcript))).not.toContain(h.daemon.daemon.token);
    sub.close();
  }, 60_000);

  test("a memory write by the real CLI is audited as this agent in this conversation (its own gateway credential)", async () => {
    const id = await h.conversation({ model: "claude-sonnet-4-5" });
    const sub = await h.daemon.subscribe(id);
    await h.send(id, 'CALL: mcp__coffer__coffer__remember {"text":"Claude saw the staging host","scope":"global"}');
    expect((await sub.waitFor(isTerminal)).event).toMatchObject({ type: "turn_done" });
    sub.close();
    const rows = (await h.daemon.api.get("/audit?action=memory_added&limit=1")).body.entries;
    expect(rows[0]).toMatchObject({ actor: "agent", details: { agent: "claude_code", conversation_id: id } });
  }, 60_000);

  test("a resumed session gets the gateway again (servers are not saved in the session)", async () => {
    const id = await h.conversation({ model: "claude-sonnet-4-5" });
    const sub = await h.daemon.subscribe(id);
    await h.send(id, "hello");
    await sub.waitFor(isTerminal);
    await h.restart(); // a new daemon: the next turn starts a new `claude` that resumes the stored session
    const sub2 = await h.daemon.subscribe(id);
    await h.send(id, 'CALL: mcp__coffer__coffer__search_tools {"query":"anything"}');
    const done = await sub2.waitFor(isTerminal);
    expect(done.event.type).toBe("turn_done");
    const result = sub2.events.find((e) => e.event.type === "tool_result")!.event as any;
    expect(result.error).toBeNull();
    expect(JSON.stringify(result.output)).toContain("total_searched");
    sub.close();
    sub2.close();
  }, 90_000);
});
