/**
 * The vault's tools as the agents reach them: a real MCP client (the SDK's Streamable HTTP
 * client) on the daemon's /mcp, with real skill folders and a real SQLite file behind it.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";
import { skillMd, writeSkill, writeTree } from "../support/vault-fixtures.js";

let t: TestDaemon;
let client: Client;

beforeAll(async () => {
  t = await startTestDaemon();
  const skills = join(t.home, "skills");
  await writeSkill(skills, "format-python", skillMd("format-python", "Format Python code with black"));
  await writeSkill(skills, "malformed", "---\nname: malformed\ndescription: [unclosed\n---\n");
  client = new Client({ name: "vault-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.daemon.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${t.daemon.token}`, "user-agent": "vault-test/1.0" } } }),
  );
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

async function callJson(name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; value: any; text: string }> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("");
  let value: unknown = null;
  try {
    value = JSON.parse(text);
  } catch {
    // an error result is prose
  }
  return { isError: result.isError === true, value, text };
}

describe("vault tools through /mcp", { timeout: 30_000 }, () => {
  acceptance("008-agent-chat", "skills are reachable as tools", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((x) => x.name);
    expect(names).toEqual(expect.arrayContaining(["coffer__list_skills", "coffer__load_skill"]));
    expect(tools.find((x) => x.name === "coffer__load_skill")!.inputSchema).toMatchObject({ required: ["name"] });

    // The malformed skill is left out; the catalogue and the listing still work.
    const listed = await callJson("coffer__list_skills");
    expect(listed).toMatchObject({ isError: false, value: { skills: [{ name: "format-python", description: "Format Python code with black" }] } });

    const loaded = await callJson("coffer__load_skill", { name: "format-python" });
    expect(loaded.isError).toBe(false);
    expect(loaded.value).toEqual({ name: "format-python", content: skillMd("format-python", "Format Python code with black") });

    const unknown = await callJson("coffer__load_skill", { name: "nope" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toContain("skill not found: 'nope'");
  });

  test("every vault tool is listed, with read-only hints", async () => {
    const { tools } = await client.listTools();
    const hints = Object.fromEntries(tools.filter((x) => x.name.startsWith("coffer__")).map((x) => [x.name, x.annotations?.readOnlyHint]));
    expect(hints).toMatchObject({
      coffer__recall: true,
      coffer__list_memory: true,
      coffer__remember: false,
      coffer__update_memory: false,
      coffer__forget: false,
      coffer__list_knowledge_bases: true,
      coffer__search_knowledge: true,
      coffer__read_document: true,
    });
  });

  test("a fact remembered through the gateway is recalled through it; knowledge is searched and read", async () => {
    const saved = await callJson("coffer__remember", { text: "The owner's staging cluster is called bluebird", scope: "global" });
    expect(saved.value).toMatchObject({ scope: "global", status: "created" });
    const recalled = await callJson("coffer__recall", { query: "staging cluster name" });
    expect(recalled.value.hits[0]).toMatchObject({ id: saved.value.id, text: "The owner's staging cluster is called bluebird" });
    // The owner sees the agent's fact, attributed to the MCP client that wrote it (by its User-Agent).
    expect((await t.api.get(`/memory/${saved.value.id}`)).body.actor).toMatch(/vault-test/);

    const docs = join(t.home, "import-src");
    await writeTree(docs, { "runbook.md": "# Restore\n\nRestores come from the cold bucket named glacier-7.\n" });
    const kb = (await t.api.post("/knowledge", { name: "runbooks" })).body;
    let job = (await t.api.post(`/knowledge/${kb.id}/imports`, { path: docs })).body;
    while (job.status === "running") job = (await t.api.get(`/knowledge/imports/${job.id}`)).body;
    const found = await callJson("coffer__search_knowledge", { query: "cold bucket restore" });
    expect(found.value.hits[0]).toMatchObject({ kb: "runbooks", filename: "runbook.md" });
    const read = await callJson("coffer__read_document", { document_id: found.value.hits[0].document_id });
    expect(read.value.content).toContain("glacier-7");
  });
});
