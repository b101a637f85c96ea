/**
 * Each plain record (knowledge bases, documents, search hits, import jobs, memory facts, LLM
 * connections, MCP servers) is read from SQLite as it is stored and turned into its wire shape once
 * (docs/decisions.md, "Each record mapped once"). These tests hold that mapping to the protocol:
 * over real HTTP on a real daemon, every answer carries exactly the schema's fields — none lost,
 * none of the store's own (a base's name on a document, a row's 0/1 flag) leaking out — with
 * ISO times where the store keeps epoch milliseconds.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ConnectionOut,
  DocumentDetailOut,
  DocumentOut,
  ImportJobOut,
  KnowledgeBaseOut,
  McpServerOut,
  MemoryFactOut,
  KnowledgeHit,
  SearchKnowledgeOutput,
} from "@coffer/protocol";
import type { z } from "zod";
import { afterAll, beforeAll, expect, test } from "vitest";
import { writeTree } from "../support/vault-fixtures.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

let t: TestDaemon;
let outside: string;
beforeAll(async () => {
  outside = await mkdtemp(join(tmpdir(), "coffer-records-"));
  t = await startTestDaemon();
});
afterAll(async () => {
  await t.close();
  await rm(outside, { recursive: true, force: true });
});

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The body has exactly the schema's fields and parses with it. */
function exactly(schema: z.ZodObject, body: Record<string, unknown>): void {
  expect(Object.keys(body).sort()).toEqual(Object.keys(schema.shape).sort());
  expect(() => schema.parse(body)).not.toThrow();
}

test("a knowledge base, its documents and its search hits answer in exactly their wire shapes", async () => {
  const docs = join(outside, "docs");
  // Three documents: BM25 weighs a word by how few documents hold it; with one or two, a match scores about 0.
  await writeTree(docs, {
    "guide.md": "# Guide\n\nThe backup job runs nightly and keeps 14 copies.\n",
    "notes.md": "Deploys happen on Tuesdays.\n",
    "team.md": "The team meets on Mondays.\n",
  });
  const kb = await t.api.post("/knowledge", { name: "Ops", description: "runbooks" });
  expect(kb.status).toBe(201);
  exactly(KnowledgeBaseOut, kb.body);
  expect(kb.body).toMatchObject({ name: "Ops", description: "runbooks", documents: 0, chunks: 0, created_at: expect.stringMatching(ISO) });

  let job = (await t.api.post(`/knowledge/${kb.body.id}/imports`, { path: docs })).body;
  // Poll the job until it publishes its end state (bounded by the test timeout).
  while (job.status === "queued" || job.status === "running") job = (await t.api.get(`/knowledge/imports/${job.id}`)).body;
  expect(job.status).toBe("done");
  exactly(ImportJobOut, job);
  expect(job).toMatchObject({ kb_id: kb.body.id, imported: 3, started_at: expect.stringMatching(ISO), finished_at: expect.stringMatching(ISO) });

  const base = (await t.api.get(`/knowledge/${kb.body.id}`)).body;
  exactly(KnowledgeBaseOut, base);
  expect(base).toMatchObject({ documents: 3, chunks: 3, updated_at: expect.stringMatching(ISO) });

  const [doc] = (await t.api.get(`/knowledge/${kb.body.id}/documents`)).body.documents; // guide.md, by name
  exactly(DocumentOut, doc);
  expect(doc).toMatchObject({ kb_id: kb.body.id, filename: "guide.md", source_path: join(docs, "guide.md"), chunks: 1, created_at: expect.stringMatching(ISO) });
  const detail = (await t.api.get(`/knowledge/documents/${doc.id}`)).body;
  exactly(DocumentDetailOut, detail);
  expect(detail.content).toContain("keeps 14 copies");

  const search = (await t.api.get("/knowledge/search?q=backup%20nightly&kb=Ops")).body;
  exactly(SearchKnowledgeOutput, search);
  const [hit] = search.hits;
  exactly(KnowledgeHit, hit);
  expect(hit).toMatchObject({ kb: "Ops", document_id: doc.id, filename: "guide.md", chunk: 0 });
  expect(hit.score).toBeGreaterThan(0);
});

test("a memory fact answers in exactly its wire shape, written, read, listed and edited", async () => {
  const made = await t.api.post("/memory", { text: "Releases are cut from main", project: "/srv/app", type: "process" });
  expect(made.status).toBe(201);
  exactly(MemoryFactOut, made.body);
  expect(made.body).toMatchObject({ scope: "project", project: "/srv/app", type: "process", actor: expect.any(String), created_at: expect.stringMatching(ISO) });
  exactly(MemoryFactOut, (await t.api.get(`/memory/${made.body.id}`)).body);
  const edited = (await t.api.patch(`/memory/${made.body.id}`, { text: "Releases are cut from the release branch" })).body;
  exactly(MemoryFactOut, edited);
  expect(edited.text).toBe("Releases are cut from the release branch");
  const listed = (await t.api.get("/memory")).body.facts.find((f: { id: string }) => f.id === made.body.id);
  exactly(MemoryFactOut, listed);
});

test("an LLM connection answers in exactly its wire shape, its default flag a boolean", async () => {
  const made = await t.api.post("/connections", { name: "local", wire: "ollama", model: "llama3", internal_default: true });
  expect(made.status).toBe(201);
  exactly(ConnectionOut, made.body);
  expect(made.body).toMatchObject({ wire: "ollama", base_url: null, credential_ref: null, credential_set: false, internal_default: true });
  const patched = (await t.api.patch(`/connections/${made.body.id}`, { base_url: "http://127.0.0.1:9", internal_default: false })).body;
  exactly(ConnectionOut, patched);
  expect(patched).toMatchObject({ base_url: "http://127.0.0.1:9", internal_default: false, updated_at: expect.stringMatching(ISO) });
  exactly(ConnectionOut, (await t.api.get("/connections")).body.connections[0]);
});

test("an MCP server answers in exactly its wire shape, its launch fields read back from their JSON document", async () => {
  const made = await t.api.post("/mcp/servers", {
    name: "tools",
    transport: "stdio",
    command: "/nonexistent/server",
    args: ["--flag"],
    env: { TOKEN: { credential: "tools.token" } },
    enabled: false,
    tool_timeout_ms: 5_000,
  });
  expect(made.status).toBe(201);
  exactly(McpServerOut, made.body);
  expect(made.body).toMatchObject({
    command: "/nonexistent/server",
    args: ["--flag"],
    env: { TOKEN: { credential: "tools.token" } },
    url: null,
    headers: {},
    enabled: false,
    status: "disabled",
    startup_timeout_ms: expect.any(Number),
    tool_timeout_ms: 5_000,
    created_at: expect.stringMatching(ISO),
  });
  const patched = (await t.api.patch("/mcp/servers/tools", { args: ["--other"], startup_timeout_ms: 7_000 })).body;
  exactly(McpServerOut, patched);
  expect(patched).toMatchObject({ args: ["--other"], startup_timeout_ms: 7_000, tool_timeout_ms: 5_000, env: { TOKEN: { credential: "tools.token" } } });
  exactly(McpServerOut, (await t.api.get("/mcp/servers")).body.servers[0]);
});
