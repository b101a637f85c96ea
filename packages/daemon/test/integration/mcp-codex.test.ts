/**
 * The gateway end to end with the REAL `codex` binary: the gateway rides on `thread/start`'s
 * `config.mcp_servers`; with a model slug Codex does not know, the `mcp__coffer` namespace
 * is inline, so the fake Responses server calls `coffer__recall` directly.
 */
import { readFileSync } from "node:fs";
import { isTerminalEvent, type ChatEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startAgentHarness, type AgentHarness } from "../fakes/agent-harness.js";

let h: AgentHarness<"codex">;
beforeAll(async () => {
  h = await startAgentHarness("codex");
}, 30_000);
afterAll(() => h?.close(), 30_000);

const isTerminal = (e: ChatEvent) => isTerminalEvent(e);
const FACT = "The vault door code is BLUE-42";

describe("Codex uses Coffer's MCP gateway", () => {
  test("coffer__recall through /mcp brings a memory fact into the answer, shown as tool_call/tool_result", async () => {
    const api = h.daemon.api;
    expect((await api.post("/memory", { text: FACT, scope: "global" })).status).toBe(201);
    const id = await h.conversation({ model: "gpt-fake" });
    const sub = await h.daemon.subscribe(id);
    await h.send(id, 'CALL_MCP mcp__coffer coffer__recall {"query":"vault door code"}');
    const done = await sub.waitFor(isTerminal);
    expect(done.event).toMatchObject({ type: "turn_done" });

    const call = sub.events.find((e) => e.event.type === "tool_call")!.event as any;
    const result = sub.events.find((e) => e.event.type === "tool_result")!.event as any;
    expect(call.tool_name).toContain("coffer__recall");
    expect(call.tool_input).toMatchObject({ query: "vault door code" });
    expect(result).toMatchObject({ tool_use_id: call.tool_use_id, error: null });
    expect(JSON.stringify(result.output)).toContain("BLUE-42");
    const answer = sub.events.filter((e) => e.event.type === "text_delta").map((e) => (e.event as any).text).join("");
    expect(answer).toContain("BLUE-42");

    const log = await api.get("/mcp/invocations?tool=coffer__recall");
    expect(log.body.invocations[0]).toMatchObject({ caller: "codex-mcp-client", server: "coffer", outcome: "ok" });

    // The token rides on the JSON-RPC pipe only: not on the app-server's command line or in its environment.
    const pid = h.provider.appServerPid;
    expect(pid).toBeGreaterThan(0);
    expect(readFileSync(`/proc/${pid}/cmdline`, "utf8")).not.toContain(h.daemon.daemon.token);
    expect(readFileSync(`/proc/${pid}/environ`, "utf8")).not.toContain(h.daemon.daemon.token);
    sub.close();
  }, 60_000);

  test("a memory write by the real CLI is audited as this agent in this conversation (its own gateway credential)", async () => {
    const id = await h.conversation({ model: "gpt-fake" });
    const sub = await h.daemon.subscribe(id);
    await h.send(id, 'CALL_MCP mcp__coffer coffer__remember {"text":"Codex saw the staging host","scope":"global"}');
    expect((await sub.waitFor(isTerminal)).event).toMatchObject({ type: "turn_done" });
    sub.close();
    const rows = (await h.daemon.api.get("/audit?action=memory_added&limit=1")).body.entries;
    expect(rows[0]).toMatchObject({ actor: "agent", details: { agent: "codex", conversation_id: id } });
  }, 60_000);

  test("a resumed thread (new app-server after a restart) gets the gateway again", async () => {
    const id = await h.conversation({ model: "gpt-fake" });
    const sub = await h.daemon.subscribe(id);
    await h.send(id, "hello");
    await sub.waitFor(isTerminal);
    sub.close();
    await h.restart(); // Codex does not persist per-thread config: thread/resume must carry it
    const sub2 = await h.daemon.subscribe(id);
    await h.send(id, 'CALL_MCP mcp__coffer coffer__search_tools {"query":"anything"}');
    const done = await sub2.waitFor(isTerminal);
    expect(done.event.type).toBe("turn_done");
    const result = sub2.events.find((e) => e.event.type === "tool_result")!.event as any;
    expect(result.error).toBeNull();
    expect(JSON.stringify(result.output)).toContain("total_searched");
    sub2.close();
  }, 90_000);
});
