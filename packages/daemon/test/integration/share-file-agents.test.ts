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
import { FakeTelegram, type FakeChatMessage } from "../fakes/fake-telegram.js";
import { acceptance } from "../support/acceptance.js";
import { BOT, FAST_CHANNEL, OWNER } from "../support/channel-rig.js";
import { cofferAgainst } from "../../../cli/test/support/run-cli.js";

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
        // The caption rides on the attachment too: the page shows it live as a reload does.
        attachment: { id: expect.any(String), name: "chart.png", media_type: "image/png", size: PNG_1X1.length, caption: "the chart" },
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

/**
 * The scenario on every surface at once, with the REAL claude CLI: the owner writes from the
 * phone, the agent shares a chart over MCP and tries a file outside its workspace. The thread API
 * (what the page reads) has the chart on the reply, the fake Bot API got it as a photo after the
 * reply's text, `coffer chat show` prints where it is, and the refused path is audited.
 */
describe("coffer__share_file on every surface (real claude, the phone, the CLI)", () => {
  let h: AgentHarness<"claude_code">;
  let tg: FakeTelegram;
  beforeAll(async () => {
    tg = await FakeTelegram.start();
    tg.addBot(BOT);
    h = await startAgentHarness("claude_code", { daemon: { ...FAST_CHANNEL, telegram: { apiRoot: tg.apiRoot, pollTimeoutSeconds: 5 } } });
  }, 30_000);
  afterAll(async () => {
    await h?.close();
    await tg?.close();
  }, 30_000);

  acceptance(
    "025-attachments",
    "an agent shares a file with coffer__share_file: the page shows it, Telegram gets a photo or document, the CLI prints where it is; refused paths are audited",
    async () => {
      const api = h.daemon.api;
      expect((await api.put("/credentials/tg-bot", { secret: BOT.token })).status).toBe(200);
      const channel = await api.post("/channels", { kind: "telegram", name: "phone", bot_token_ref: "tg-bot", default_agent: "claude_code" });
      expect(channel.status).toBe(201);
      const botMessages = () => tg.chat(OWNER.id).filter((m) => m.from === "bot");
      const botSays = async (match: (m: FakeChatMessage) => boolean) => {
        await tg.waitFor(() => botMessages().some(match));
        return botMessages().find(match)!;
      };
      await tg.waitFor((f) => f.polling());
      tg.userSays({ chatId: OWNER.id, from: OWNER, text: (await api.post(`/channels/${channel.body.id}/pairing-code`)).body.code });
      await botSays((m) => m.text.startsWith("Paired."));

      mkdirSync(workspaceOf(h), { recursive: true });
      writeFileSync(join(workspaceOf(h), "chart.png"), PNG_1X1);
      const list = await h.daemon.subscribeList();
      tg.userSays({ chatId: OWNER.id, from: OWNER, text: CALL.claude_code("coffer__share_file", { path: "chart.png", caption: "your chart" }) });
      const photo = await botSays((m) => m.file?.kind === "photo");
      expect(photo).toMatchObject({ text: "your chart", file: { name: "chart.png" } });
      expect(photo.file!.bytes.equals(PNG_1X1)).toBe(true);
      // After the reply's text: the phone reads what the agent said, then gets the file.
      const answer = botMessages().findIndex((m) => m.text.startsWith("Tool said:"));
      expect(answer).toBeGreaterThanOrEqual(0);
      expect(answer).toBeLessThan(botMessages().indexOf(photo));

      const created = await list.waitFor((e: any) => e.type === "conversation_created");
      list.close();
      const id = (created.event as any).conversation.id as string;
      const [, reply] = await h.messages(id);
      // Stored with the agent's line for it: the page and `chat show` say what the phone said.
      expect(reply.attachments).toEqual([{ id: expect.any(String), name: "chart.png", media_type: "image/png", size: PNG_1X1.length, caption: "your chart" }]);

      const shown = await cofferAgainst(h.daemon, ["chat", "show", id]);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain(`📎 chart.png (${PNG_1X1.length} B) · `);
      expect(shown.stdout).toContain(`attachment get ${reply.attachments[0].id} — your chart`);

      // A path outside the workspace: refused, audited, nothing sent.
      const sent = botMessages().length;
      tg.userSays({ chatId: OWNER.id, from: OWNER, text: CALL.claude_code("coffer__share_file", { path: "/etc/hostname" }) });
      await botSays((m) => botMessages().indexOf(m) >= sent && m.text.includes("outside your working directory"));
      expect(h.auditRows("share_file_refused")).toEqual([
        { actor: "agent", details: { agent: "claude_code", conversation_id: id, path: "/etc/hostname", reason: "outside_workspace" } },
      ]);
      expect(botMessages().filter((m) => m.file)).toHaveLength(1);
    },
    90_000,
  );
});
