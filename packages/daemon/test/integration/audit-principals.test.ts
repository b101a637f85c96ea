/**
 * Issue 21, W12: the audit records the principal the server verified (which page session, the
 * daemon token, which channel, which agent), never what a client says about itself.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, test } from "vitest";
import type { Question } from "@coffer/protocol";
import { GatewayCredentials } from "../../src/application/gateway/gateway-credentials.js";
import { gatewayClient, textOf } from "../fixtures/mcp/gateway-client.js";
import { acceptance } from "../support/acceptance.js";
import { startChannelRig, type ChannelRig } from "../support/channel-rig.js";
import { script } from "../support/scripted-agent.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const SPEC = "021-hardening";
const PICK: Question = { header: "Colour", text: "Which?", options: [{ label: "Red", description: "" }], multi_select: false, allow_free_text: false };

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function latest(t: TestDaemon, action: string): Promise<any> {
  return (await t.api.get(`/audit?action=${action}&limit=1`)).body.entries[0];
}

async function sessionHeaders(t: TestDaemon): Promise<{ authorization: string; id: string }> {
  const res = await fetch(`${t.daemon.url}/api/v1/auth/session`, { method: "POST", headers: { authorization: `Bearer ${t.daemon.token}` } });
  const s = (await res.json()) as { session_id: string; secret: string };
  return { authorization: `Bearer ${s.session_id}.${s.secret}`, id: s.session_id };
}

describe("who acted", () => {
  acceptance(SPEC, "the audit records the principal the server verified: page session, CLI token, channel or agent", async () => {
    const rig: ChannelRig = await startChannelRig();
    cleanups.push(() => rig.close());
    const t = rig.t;

    // The channel: pairing happened through the bot, so the row names the channel.
    expect(await latest(t, "channel_paired")).toMatchObject({ actor: "user", principal: { kind: "channel", channel_id: rig.channelId } });

    // A page session: which session.
    const page = await sessionHeaders(t);
    const made = await fetch(`${t.daemon.url}/api/v1/chat/conversations`, {
      method: "POST",
      headers: { authorization: page.authorization, "content-type": "application/json" },
      body: JSON.stringify({ agent_key: "scripted", agent_config: {} }),
    });
    expect(made.status).toBe(201);
    expect(await latest(t, "conversation_created")).toMatchObject({ actor: "user", principal: { kind: "session", session_id: page.id } });

    // The daemon token (what the CLI sends), over TCP.
    const conversationId = await t.conversation();
    expect(await latest(t, "conversation_created")).toMatchObject({ actor: "user", principal: { kind: "token", transport: "tcp" } });

    // An agent: its gateway credential, whatever its User-Agent says.
    const agent: Client = await gatewayClient(t.daemon.url, new GatewayCredentials(t.daemon.token).issue("claude_code", conversationId), "coffer-cli/1.0");
    cleanups.push(() => agent.close());
    JSON.parse(textOf(await agent.callTool({ name: "coffer__remember", arguments: { text: "tabs", scope: "global" } })));
    expect(await latest(t, "memory_added")).toMatchObject({ actor: "agent", principal: { kind: "agent", agent: "claude_code", conversation_id: conversationId } });
  });

  test("a question answered over the token while claiming by: telegram is recorded as the token's", async () => {
    const t = await startTestDaemon();
    cleanups.push(() => t.close());
    const id = await t.conversation();
    const sub = await t.subscribe(id);
    cleanups.push(async () => sub.close());
    await t.api.post(`/chat/conversations/${id}/messages`, { text: script({ ask: { questions: [PICK] } }) });
    const qid = ((await sub.waitFor((e) => e.type === "question")).event as any).question_id;
    const res = await t.api.post(`/chat/conversations/${id}/questions/${qid}/answer`, { answers: [{ selected: ["Red"] }], by: "telegram" });
    expect(res.status).toBe(204);
    const closed = (await sub.waitFor((e) => e.type === "question_answered")).event as any;
    expect(closed.by).toBe("cli");
    expect(await latest(t, "question_answered")).toMatchObject({
      actor: "user",
      principal: { kind: "token", transport: "tcp" },
      details: { conversation_id: id, question_id: qid, label: "telegram" },
    });
  });
});
