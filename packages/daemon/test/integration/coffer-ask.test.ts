/**
 * coffer__ask: the agentic RAG loop on the internal-default connection, against fake
 * Anthropic / OpenAI / Ollama servers, over the vault's real memory and knowledge tools
 * (seeded through the REST API). Called in-process through the builtin tool registry —
 * the same object the MCP gateway exposes as coffer__ask.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { FakeAnthropicLlm } from "../fakes/llm-fake-anthropic.js";
import { gatewayClient, textOf } from "../fixtures/mcp/gateway-client.js";
import { FakeOllamaLlm } from "../fakes/llm-fake-ollama.js";
import { FakeOpenAiLlm } from "../fakes/llm-fake-openai.js";
import type { FakeChat, FakeLlmOptions, FakeLlmServer, FakeReply } from "../fakes/llm-fake-server.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

type Fake = FakeLlmServer & { readonly baseUrl: string };
const MAX_STEPS = 3;
const FACT = "The owner's espresso machine is a Rancilio Silvia.";
const CHUNK = "Descale the Rancilio every 8 weeks with citric acid.";

let t: TestDaemon;
let docs: string;
const fakes: Fake[] = [];

beforeAll(async () => {
  t = await startTestDaemon({ askMaxSteps: MAX_STEPS });
  expect((await t.api.post("/memory", { text: FACT, scope: "global" })).status).toBe(201);
  docs = await mkdtemp(join(tmpdir(), "coffer-ask-docs-"));
  await writeFile(join(docs, "descaling.md"), `# Descaling\n\n${CHUNK}\n`);
  const kb = await t.api.post("/knowledge", { name: "manuals" });
  let job = (await t.api.post(`/knowledge/${kb.body.id}/imports`, { path: docs })).body;
  // Poll the import until it publishes its end state (bounded by the hook timeout).
  while (job.status === "running") job = (await t.api.get(`/knowledge/imports/${job.id}`)).body;
  expect(job).toMatchObject({ status: "done", imported: 1 });
  for (const [ref, secret] of [["anthropic-ask", "sk-ant-fake"], ["openai-ask", "sk-openai-fake"]]) await t.api.put(`/credentials/${ref}`, { secret });
}, 30_000);
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  await t.close();
  await rm(docs, { recursive: true, force: true });
});

/** A model that looks in memory, then in knowledge, then answers from what came back. */
function ragPolicy(chat: FakeChat): FakeReply {
  if (chat.toolResults.length === 0) return { toolCall: { name: "coffer__recall", input: { query: "espresso machine" } } };
  if (chat.toolResults.length === 1) return { toolCall: { name: "coffer__search_knowledge", input: { query: "descale" } } };
  return { text: `From your vault: ${chat.toolResults.join(" || ")}` };
}

async function internalDefault(wire: string, f: Fake, credentialRef: string | null, name = `${wire}-internal`): Promise<void> {
  const res = await t.api.post("/connections", { name, wire, base_url: f.baseUrl, model: "fake-model", credential_ref: credentialRef, internal_default: true });
  expect(res.status).toBe(201);
}

async function ask(query: string) {
  const tool = t.daemon.builtinTools.get("coffer__ask");
  expect(tool).toBeDefined();
  return tool!.run({ query }, { caller: "test" });
}

const WIRES = [
  { wire: "anthropic", start: (o: FakeLlmOptions) => FakeAnthropicLlm.start(o), ref: "anthropic-ask" },
  { wire: "openai", start: (o: FakeLlmOptions) => FakeOpenAiLlm.start(o), ref: "openai-ask" },
  { wire: "ollama", start: (o: FakeLlmOptions) => FakeOllamaLlm.start(o), ref: null },
] as const;

describe("coffer__ask", { timeout: 20_000 }, () => {
  test("with no internal default: a clear error naming what to configure", async () => {
    expect((await t.api.get("/connections")).body.connections).toEqual([]);
    const out = await ask("anything?");
    expect(out).toEqual({ ok: false, error: expect.stringContaining("needs an LLM connection marked as the internal default") });
    expect(!out.ok && out.error).toContain("Settings → LLM Connections");
  });

  test("the MCP gateway lists it as coffer__ask and an agent's call gets the same result", async () => {
    const client = await gatewayClient(t.daemon.url, t.daemon.token, "claude-code/2.1");
    try {
      const { tools } = await client.listTools();
      const ask = tools.find((x) => x.name === "coffer__ask");
      expect(ask?.inputSchema).toMatchObject({ type: "object", required: ["query"] });
      const result = await client.callTool({ name: "coffer__ask", arguments: { query: "anything?" } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("needs an LLM connection marked as the internal default");
    } finally {
      await client.close();
    }
  });

  test.each(WIRES)("answers from a memory fact and a knowledge chunk, with sources ($wire wire)", async ({ wire, start, ref }) => {
    const f = await start({ models: ["fake-model"], reply: ragPolicy });
    fakes.push(f);
    await internalDefault(wire, f, ref);

    const out = await ask("How often should I descale my espresso machine?");
    expect(out.ok).toBe(true);
    const value = (out as { ok: true; value: any }).value;
    expect(value.answer).toContain("Rancilio Silvia");
    expect(value.answer).toContain("every 8 weeks with citric acid");
    expect(value.sources).toEqual([
      { tool: "coffer__recall", input: { query: "espresso machine" } },
      { tool: "coffer__search_knowledge", input: { query: "descale" } },
    ]);
    expect(value.truncated).toBeUndefined();

    // The model saw the question and only read-only tools: never a write tool, never ask itself.
    expect(f.chats[0]!.userText).toContain("descale my espresso machine");
    const offered = f.chats[0]!.toolNames;
    expect(offered).toEqual(expect.arrayContaining(["coffer__recall", "coffer__search_knowledge", "coffer__list_memory", "coffer__read_document"]));
    for (const banned of ["coffer__ask", "coffer__remember", "coffer__update_memory", "coffer__forget"]) expect(offered).not.toContain(banned);
    expect(f.chats).toHaveLength(3);
  });

  test("on the step bound: a clean answer saying so, truncated: true", async () => {
    const f = await FakeAnthropicLlm.start({ models: ["fake-model"], reply: () => ({ toolCall: { name: "coffer__recall", input: { query: "more" } } }) });
    fakes.push(f);
    await internalDefault("anthropic", f, "anthropic-ask", "looping");

    const out = await ask("Keep looking forever");
    expect(out).toEqual({
      ok: true,
      value: {
        answer: expect.stringMatching(/^Could not finish within 3 steps/),
        sources: [{ tool: "coffer__recall", input: { query: "more" } }],
        truncated: true,
      },
    });
    expect(f.chats).toHaveLength(MAX_STEPS);
  });

  test("a provider failure is an error result in plain words, never the secret", async () => {
    const f = await FakeOpenAiLlm.start({ models: ["fake-model"], apiKey: "another-key", reply: ragPolicy });
    fakes.push(f);
    await internalDefault("openai", f, "openai-ask", "wrong-key");
    const out = await ask("anything?");
    expect(out.ok).toBe(false);
    const error = (out as { error: string }).error;
    expect(error).toContain('OpenAI rejected the credential "openai-ask" (HTTP 401)');
    expect(error).not.toContain("sk-openai-fake");
  });
});
