/**
 * coffer__share_file end to end: the REAL agent CLI, driven by its fake model server, calls the
 * tool over MCP through Coffer's gateway; the file lands on the reply being written (the thread
 * API returns it on the assistant message, a live `file_shared` event carries it during the turn),
 * and a path outside the workspace is refused and audited.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isTerminalEvent, type ChatEvent } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AGENTS, startAgentHarness, type AgentHarness, type AgentKey } from "../fakes/agent-harness.js";

/** A valid 1×1 PNG (the page shows it inline; the phone gets it as a photo). */
export const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const isTerminal = (e: ChatEvent) => isTerminalEvent(e);

/** The message that makes each fake model call a gateway tool (see mcp-agents.test.ts). */
export const CALL: Record<AgentKey, (tool: string, args: Record<string, unknown>) => string> = {
  claude_code: (tool, args) => `CALL: mcp__coffer__${tool} ${JSON.stringify(args)}`,
  codex: (tool, args) => `CALL_MCP mcp__coffer ${tool} ${JSON.stringify(args)}`,
};

/** The conversation's working directory: the daemon's workspace (no cwd in its config). */
export function workspaceOf(h: AgentHarness): string {
  return join(h.home, "coffer-workspace");
}

describe.each(AGENTS)("%s shares a file with coffer__share_file", (agent) => {
  let h: AgentHarness;
  beforeAll(async () => {
    h = await startAgentHarness(agent);
  }, 30_000);
  afterAll(() => h?.close(), 30_000);

  test("the shared file is on the reply: live during the turn, in the thread after it, bytes intact", async () => {
    const id = await h.conversation();
    mkdirSync(join(workspaceOf(h), "out"), { recursive: true });
    writeFileSync(join(workspaceOf(h), "out", "chart.png"), PNG_1X1);
    const sub = await h.daemon.subscribe(id);
    await h.send(id, CALL[agent]("coffer__share_file", { path: "out/chart.png", caption: "the chart" }));
    const done = await sub.waitFor(isTerminal);
    expect(done.event.type).toBe("turn_done");

    const start = sub.events.find((e) => e.event.type === "turn_start")!.event as Extract<ChatEvent, { type: "turn_start" }>;
    const shared = sub.events.filter((e) => e.event.type === "file_shared").map((e) => e.event);
    expect(shared).toEqual([
      {
        type: "file_shared",
        turn_id: start.turn_id,
        message_id: start.assistant_message_id,
        attachment: { id: expect.any(String), name: "chart.png", media_type: "image/png", size: PNG_1X1.length },
        caption: "the chart",
      },
    ]);
    // Live before the turn ended: the page shows it while the agent still writes.
    expect(sub.events.findIndex((e) => e.event.type === "file_shared")).toBeLessThan(sub.events.indexOf(done));
    const result = sub.events.find((e) => e.event.type === "tool_result")!.event as any;
    expect(result.error).toBeNull();
    sub.close();

    const [, reply] = await h.messages(id);
    expect(reply).toMatchObject({ id: start.assistant_message_id, role: "assistant", status: "complete" });
    const attachment = (shared[0] as any).attachment;
    expect(reply.attachments).toEqual([attachment]);
    const bytes = await fetch(`${h.daemon.daemon.url}/api/v1/attachments/${attachment.id}`, { headers: { authorization: `Bearer ${h.daemon.daemon.token}` } });
    expect(bytes.status).toBe(200);
    expect(Buffer.from(await bytes.arrayBuffer())).toEqual(PNG_1X1);
    expect(h.auditRows("file_shared")).toMatchObject([{ actor: "agent", details: { conversation_id: id, attachment_id: attachment.id, path: "out/chart.png" } }]);
  }, 60_000);

  test("a path outside the working directory is refused, named to the agent and audited; nothing is attached", async () => {
    writeFileSync(join(h.home, "outside.txt"), "the owner's private notes");
    const id = await h.conversation();
    const sub = await h.daemon.subscribe(id);
    await h.send(id, CALL[agent]("coffer__share_file", { path: "../outside.txt" }));
    expect((await sub.waitFor(isTerminal)).event.type).toBe("turn_done");
    const result = sub.events.find((e) => e.event.type === "tool_result")!.event as any;
    expect(JSON.stringify(result)).toContain("outside your working directory");
    expect(sub.events.some((e) => e.event.type === "file_shared")).toBe(false);
    sub.close();
    const [, reply] = await h.messages(id);
    expect(reply.attachments).toBeUndefined();
    const refused = h.auditRows("share_file_refused").filter((r) => r.details.conversation_id === id);
    expect(refused).toEqual([{ actor: "agent", details: { agent, conversation_id: id, path: "../outside.txt", reason: "outside_workspace" } }]);
    expect(JSON.stringify(refused)).not.toContain("private notes");
  }, 60_000);
});
