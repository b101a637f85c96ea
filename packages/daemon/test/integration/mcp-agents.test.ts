/**
 * Coffer's MCP gateway end to end with the REAL agent CLIs, each against its fake model server.
 * Claude Code gets the gateway on every turn (SDK `mcpServers`) and its fake asks for
 * `mcp__coffer__coffer__recall`; Codex gets it on `thread/start`'s `config.mcp_servers`, and
 * with a model slug Codex does not know the `mcp__coffer` namespace is inline, so its fake calls
 * `coffer__recall` directly. Either way the memory fact comes back through /mcp and the call
 * shows in the thread. One scenario per agent from the shared rig; what differs is in PER_AGENT.
 */
import { readFileSync } from "node:fs";
import { isTerminalEvent, type ChatEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AGENTS, startAgentHarness, type AgentHarness, type AgentKey } from "../fakes/agent-harness.js";
import type { ClaudeCodeProvider } from "../../src/infrastructure/agents/claude-code/claude-code-provider.js";
import type { CodexProvider } from "../../src/infrastructure/agents/codex/codex-provider.js";

const isTerminal = (e: ChatEvent) => isTerminalEvent(e);
const FACT = "The vault door code is BLUE-42";

interface AgentGateway {
  readonly name: string;
  readonly model: string;
  /** The message that makes the fake model call a gateway tool with these arguments. */
  readonly call: (tool: string, args: Record<string, unknown>) => string;
  /** The tool name the agent reports, when it is exact (Codex's carries its namespace its own way). */
  readonly toolName: string | null;
  /** Who the gateway's invocation log says called (the agent's MCP client name). */
  readonly caller: string;
  /** The stored reply's blocks after one gateway call, where the agent pins them. */
  readonly storedBlocks: readonly string[] | null;
  /** The process that holds the gateway credential for this conversation. */
  readonly pid: (h: AgentHarness, conversationId: string) => number | undefined;
  /** Codex's app-server is spawned by Coffer with an environment it chose: the token must not be in it. */
  readonly checkEnviron: boolean;
  readonly resumeTitle: string;
}

const PER_AGENT: Record<AgentKey, AgentGateway> = {
  claude_code: {
    name: "Claude Code",
    model: "claude-sonnet-4-5",
    call: (tool, args) => `CALL: mcp__coffer__${tool} ${JSON.stringify(args)}`,
    toolName: "mcp__coffer__coffer__recall",
    caller: "claude-code",
    storedBlocks: ["tool_use", "tool_result", "text"],
    pid: (h, id) => (h.provider as ClaudeCodeProvider).warmProcess(id)?.pid,
    checkEnviron: false,
    resumeTitle: "a resumed session gets the gateway again (servers are not saved in the session)",
  },
  codex: {
    name: "Codex",
    model: "gpt-fake",
    call: (tool, args) => `CALL_MCP mcp__coffer ${tool} ${JSON.stringify(args)}`,
    toolName: null,
    caller: "codex-mcp-client",
    storedBlocks: null,
    pid: (h) => (h.provider as CodexProvider).appServerPid,
    checkEnviron: true,
    resumeTitle: "a resumed thread (new app-server after a restart) gets the gateway again",
  },
};

describe.each(AGENTS)("%s uses Coffer's MCP gateway", (agent) => {
  const my = PER_AGENT[agent];
  let h: AgentHarness;
  beforeAll(async () => {
    h = await startAgentHarness(agent);
  }, 30_000);
  afterAll(() => h?.close(), 30_000);

  test("coffer__recall through /mcp brings a memory fact into the answer, shown as tool_call/tool_result", async () => {
    const api = h.daemon.api;
    expect((await api.post("/memory", { text: FACT, scope: "global" })).status).toBe(201);
    const id = await h.conversation({ model: my.model });
    const sub = await h.daemon.subscribe(id);
    await h.send(id, my.call("coffer__recall", { query: "vault door code" }));
    const done = await sub.waitFor(isTerminal);
    expect(done.event).toMatchObject({ type: "turn_done" });

    const call = sub.events.find((e) => e.event.type === "tool_call")!.event as any;
    const result = sub.events.find((e) => e.event.type === "tool_result")!.event as any;
    if (my.toolName) expect(call.tool_name).toBe(my.toolName);
    else expect(call.tool_name).toContain("coffer__recall");
    expect(call.tool_input).toMatchObject({ query: "vault door code" });
    expect(result).toMatchObject({ tool_use_id: call.tool_use_id, error: null });
    expect(JSON.stringify(result.output)).toContain("BLUE-42");
    const answer = sub.events.filter((e) => e.event.type === "text_delta").map((e) => (e.event as any).text).join("");
    expect(answer).toContain("BLUE-42");

    if (my.storedBlocks) {
      const [, assistant] = await h.messages(id);
      expect(assistant.content.map((b: any) => b.type)).toEqual(my.storedBlocks);
    }

    const log = await api.get("/mcp/invocations?tool=coffer__recall");
    expect(log.body.invocations[0]).toMatchObject({ caller: my.caller, server: "coffer", outcome: "ok" });

    // The token travels in headers (Claude) or on the JSON-RPC pipe (Codex) only: not on the
    // agent's command line, not in the environment Coffer gave it, not to the model.
    const pid = my.pid(h, id);
    expect(pid).toBeGreaterThan(0);
    expect(readFileSync(`/proc/${pid}/cmdline`, "utf8")).not.toContain(h.daemon.daemon.token);
    if (my.checkEnviron) expect(readFileSync(`/proc/${pid}/environ`, "utf8")).not.toContain(h.daemon.daemon.token);
    expect(JSON.stringify(h.fake.requests)).not.toContain(h.daemon.daemon.token);
    sub.close();
  }, 60_000);

  test("a memory write by the real CLI is audited as this agent in this conversation (its own gateway credential)", async () => {
    const id = await h.conversation({ model: my.model });
    const sub = await h.daemon.subscribe(id);
    await h.send(id, my.call("coffer__remember", { text: `${my.name} saw the staging host`, scope: "global" }));
    expect((await sub.waitFor(isTerminal)).event).toMatchObject({ type: "turn_done" });
    sub.close();
    const rows = (await h.daemon.api.get("/audit?action=memory_added&limit=1")).body.entries;
    expect(rows[0]).toMatchObject({ actor: "agent", details: { agent, conversation_id: id } });
  }, 60_000);

  test(my.resumeTitle, async () => {
    const id = await h.conversation({ model: my.model });
    const sub = await h.daemon.subscribe(id);
    await h.send(id, "hello");
    await sub.waitFor(isTerminal);
    sub.close();
    // A new daemon: Claude's next turn starts a new `claude` that resumes the stored session;
    // Codex does not persist per-thread config, so thread/resume must carry it.
    await h.restart();
    const sub2 = await h.daemon.subscribe(id);
    await h.send(id, my.call("coffer__search_tools", { query: "anything" }));
    const done = await sub2.waitFor(isTerminal);
    expect(done.event.type).toBe("turn_done");
    const result = sub2.events.find((e) => e.event.type === "tool_result")!.event as any;
    expect(result.error).toBeNull();
    expect(JSON.stringify(result.output)).toContain("total_searched");
    sub2.close();
  }, 90_000);
});
