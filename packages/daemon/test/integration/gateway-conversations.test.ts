/**
 * Issue 21: a gateway credential is an HMAC over (agent, conversation), so it stays valid for
 * as long as the daemon token does — also for a conversation that was deleted, or never was.
 * The attack: call /mcp with such a credential (a leftover agent process, a leaked transcript).
 * Real daemon, real HTTP; the credential is minted the way the daemon mints it.
 */
import { afterAll, beforeAll, expect } from "vitest";
import { GatewayCredentials } from "../../src/application/gateway/gateway-credentials.js";
import { acceptance } from "../support/acceptance.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const SPEC = "021-hardening";
let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(async () => {
  await t.close();
});

async function listTools(credential: string): Promise<{ status: number; code?: string }> {
  const res = await fetch(`${t.daemon.url}/mcp`, {
    method: "POST",
    headers: { authorization: `Bearer ${credential}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  const text = await res.text();
  return res.status === 200 ? { status: 200 } : { status: res.status, code: (JSON.parse(text) as { error: { code: string } }).error.code };
}

acceptance(SPEC, "a gateway credential for a conversation that does not exist is refused", async () => {
  const mint = (conversationId: string) => new GatewayCredentials(t.daemon.token).issue("claude_code", conversationId);
  const id = await t.conversation();
  expect(await listTools(mint(id))).toEqual({ status: 200 });
  expect(await listTools(mint("no-such-conversation"))).toEqual({ status: 401, code: "UNAUTHORIZED" });
  expect((await t.api.delete(`/chat/conversations/${id}`)).status).toBe(204);
  expect(await listTools(mint(id))).toEqual({ status: 401, code: "UNAUTHORIZED" });
  // The owner's own token is untouched by any of this.
  expect(await listTools(t.daemon.token)).toEqual({ status: 200 });
});
