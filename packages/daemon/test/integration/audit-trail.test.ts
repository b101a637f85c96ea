/**
 * Issue 11, finding 9: every change that runs commands, reads the owner's files, edits memory
 * or touches a credential leaves an audit row naming who did it. The owner acts through REST;
 * an agent acts through `/mcp` with the gateway-only credential its launch gets, and the
 * actor comes from that credential — never from a header the client sets (here the client
 * claims to be someone else in its User-Agent). Real daemon, real SQLite, real MCP client.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AUDIT_ACTIONS } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GatewayCredentials } from "../../src/application/gateway/gateway-credentials.js";
import { gatewayClient, stdioServer, textOf } from "../fixtures/mcp/gateway-client.js";
import { skillMd, writeSkill, writeTree } from "../support/vault-fixtures.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

let t: TestDaemon;
let outside: string;
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestDaemon();
  outside = await mkdtemp(join(tmpdir(), "coffer-audit-src-"));
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await t?.close();
  await rm(outside, { recursive: true, force: true });
});

/** The newest row of an action, read back through the public API. */
async function latest(action: string): Promise<{ actor: string; action: string; details: Record<string, any> }> {
  const res = await t.api.get(`/audit?action=${action}&limit=1`);
  expect(res.status).toBe(200);
  expect(res.body.entries).toHaveLength(1);
  return res.body.entries[0];
}

/** The credential the daemon hands an agent launch for one conversation (HMAC of the daemon token). */
function agentCredential(agent: string, conversationId: string): string {
  return new GatewayCredentials(t.daemon.token).issue(agent, conversationId);
}

async function client(token: string, userAgent: string): Promise<Client> {
  const c = await gatewayClient(t.daemon.url, token, userAgent);
  clients.push(c);
  return c;
}

describe("audit rows for changes made by the owner (REST)", () => {
  test("MCP servers: add, change, disable, enable, remove — with what they run, never env values", async () => {
    const server = stdioServer("audited", "healthy-server.mjs", { enabled: false, env: { TOKEN: "literal-value-123" } });
    expect((await t.api.post("/mcp/servers", server)).status).toBe(201);
    expect(await latest("mcp_server_added")).toMatchObject({
      actor: "user",
      details: { name: "audited", transport: "stdio", command: process.execPath, args: server.args, env: ["TOKEN"] },
    });
    expect((await t.api.patch("/mcp/servers/audited", { args: [...server.args, "--extra"] })).status).toBe(200);
    expect(await latest("mcp_server_changed")).toMatchObject({ actor: "user", details: { name: "audited", fields: ["args"] } });
    expect((await t.api.post("/mcp/servers/audited/enable")).status).toBe(200);
    expect(await latest("mcp_server_enabled")).toMatchObject({ actor: "user", details: { name: "audited" } });
    expect((await t.api.post("/mcp/servers/audited/disable")).status).toBe(200);
    expect(await latest("mcp_server_disabled")).toMatchObject({ actor: "user", details: { name: "audited" } });
    expect((await t.api.delete("/mcp/servers/audited")).status).toBe(204);
    expect(await latest("mcp_server_removed")).toMatchObject({ actor: "user", details: { name: "audited" } });
    const all = await t.api.get("/audit?limit=500");
    expect(JSON.stringify(all.body)).not.toContain("literal-value-123");
  });

  test("skills: import and remove", async () => {
    const src = join(outside, "skills");
    await writeSkill(src, "lint", skillMd("lint", "Run the linter"));
    expect((await t.api.post("/skills/import", { path: src })).status).toBe(200);
    expect(await latest("skill_imported")).toMatchObject({ actor: "user", details: { path: src, imported: ["lint"] } });
    expect((await t.api.delete("/skills/lint")).status).toBe(204);
    expect(await latest("skill_removed")).toMatchObject({ actor: "user", details: { folder: "lint", name: "lint" } });
  });

  test("knowledge: create, import, change, remove a document and the base", async () => {
    const docs = join(outside, "docs");
    await writeTree(docs, { "guide.md": "# Guide\n\nBackups run nightly.\n" });
    const kb = await t.api.post("/knowledge", { name: "Audited" });
    expect(kb.status).toBe(201);
    expect(await latest("knowledge_base_created")).toMatchObject({ actor: "user", details: { id: kb.body.id, name: "Audited" } });
    const started = await t.api.post(`/knowledge/${kb.body.id}/imports`, { path: docs });
    expect(started.status).toBe(202);
    expect(await latest("knowledge_imported")).toMatchObject({ actor: "user", details: { kb_id: kb.body.id, path: docs, job_id: started.body.id } });
    let job = started.body;
    const until = Date.now() + 10_000;
    while (job.status === "running" && Date.now() < until) job = (await t.api.get(`/knowledge/imports/${job.id}`)).body;
    expect(job.status).toBe("done");
    expect((await t.api.patch(`/knowledge/${kb.body.id}`, { description: "runbooks" })).status).toBe(200);
    expect(await latest("knowledge_base_changed")).toMatchObject({ actor: "user", details: { id: kb.body.id, fields: ["description"] } });
    const [doc] = (await t.api.get(`/knowledge/${kb.body.id}/documents`)).body.documents;
    expect((await t.api.delete(`/knowledge/documents/${doc.id}`)).status).toBe(204);
    expect(await latest("knowledge_document_removed")).toMatchObject({ actor: "user", details: { id: doc.id } });
    expect((await t.api.delete(`/knowledge/${kb.body.id}`)).status).toBe(204);
    expect(await latest("knowledge_base_removed")).toMatchObject({ actor: "user", details: { id: kb.body.id, name: "Audited" } });
  });

  test("memory: add, edit, remove", async () => {
    const fact = await t.api.post("/memory", { text: "The owner prefers tabs" });
    expect(fact.status).toBe(201);
    expect(await latest("memory_added")).toMatchObject({ actor: "user", details: { id: fact.body.id, scope: "global" } });
    expect((await t.api.patch(`/memory/${fact.body.id}`, { text: "The owner prefers spaces" })).status).toBe(200);
    expect(await latest("memory_edited")).toMatchObject({ actor: "user", details: { id: fact.body.id } });
    expect((await t.api.delete(`/memory/${fact.body.id}`)).status).toBe(204);
    expect(await latest("memory_removed")).toMatchObject({ actor: "user", details: { id: fact.body.id } });
  });

  test("credentials: set and remove record the ref, never the value", async () => {
    const secret = "sk-audit-never-logged-0123456789";
    expect((await t.api.put("/credentials/audited", { secret })).status).toBe(200);
    expect(await latest("credential_created")).toEqual(expect.objectContaining({ actor: "user", details: { ref: "audited" } }));
    expect((await t.api.delete("/credentials/audited")).status).toBe(204);
    expect(await latest("credential_deleted")).toEqual(expect.objectContaining({ actor: "user", details: { ref: "audited" } }));
    expect(JSON.stringify((await t.api.get("/audit?limit=500")).body)).not.toContain(secret);
  });
});

describe("memory written through the gateway", () => {
  test("an agent's credential names the agent and conversation; its User-Agent does not", async () => {
    const conversationId = await t.conversation();
    const agent = await client(agentCredential("claude_code", conversationId), "coffer-owner/9.9");
    const who = { agent: "claude_code", conversation_id: conversationId };

    const saved = JSON.parse(textOf(await agent.callTool({ name: "coffer__remember", arguments: { text: "Deploys happen on Fridays", scope: "global" } })));
    expect(saved.status).toBe("created");
    expect(await latest("memory_added")).toMatchObject({ actor: "agent", details: { ...who, id: saved.id } });
    expect((await t.api.get(`/memory/${saved.id}`)).body.actor).toBe("claude_code");

    await agent.callTool({ name: "coffer__update_memory", arguments: { id: saved.id, text: "Deploys happen on Thursdays" } });
    expect(await latest("memory_edited")).toMatchObject({ actor: "agent", details: { ...who, id: saved.id } });
    await agent.callTool({ name: "coffer__forget", arguments: { id: saved.id } });
    expect(await latest("memory_removed")).toMatchObject({ actor: "agent", details: { ...who, id: saved.id } });
  });

  test("the owner's own MCP client still uses the full token on /mcp, and is audited as the owner", async () => {
    const owner = await client(t.daemon.token, "owner-desktop/1.0");
    const saved = JSON.parse(textOf(await owner.callTool({ name: "coffer__remember", arguments: { text: "Owner note via MCP", scope: "global" } })));
    expect(await latest("memory_added")).toMatchObject({ actor: "user", details: { via: "mcp", client: "owner-desktop", id: saved.id } });
  });

  test("the agent credential is refused on /api/v1; a forged or tampered one is refused on /mcp", async () => {
    const conversationId = await t.conversation();
    const credential = agentCredential("codex", conversationId);
    for (const path of ["/api/v1/audit", "/api/v1/credentials", "/api/v1/memory"]) {
      const res = await fetch(`${t.daemon.url}${path}`, { headers: { authorization: `Bearer ${credential}` } });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("UNAUTHORIZED");
    }
    const mcp = (token: string) =>
      fetch(`${t.daemon.url}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
    expect((await mcp(credential)).status).toBe(200);
    const forged = new GatewayCredentials("not-the-daemon-token-but-just-as-long-as-it").issue("codex", conversationId);
    expect((await mcp(forged)).status).toBe(401);
    // Same MAC, another conversation: the identity is bound to the MAC.
    const [prefix, , mac] = credential.split(".");
    const otherId = Buffer.from(`codex\nsomeone-else`).toString("base64url");
    expect((await mcp(`${prefix}.${otherId}.${mac}`)).status).toBe(401);
  });
});

test("every action the daemon writes is declared in the protocol's one list", async () => {
  const rows = (await t.api.get("/audit?limit=500")).body.entries as { action: string; actor: string }[];
  expect(rows.length).toBeGreaterThan(10);
  for (const r of rows) expect(AUDIT_ACTIONS).toContain(r.action);
  expect((await t.api.get("/audit?action=not_an_action")).status).toBe(422);
});
