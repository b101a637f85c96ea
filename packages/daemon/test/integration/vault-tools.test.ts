/**
 * The vault's coffer__ tools called through the builtin registry the gateway serves from,
 * on a real SQLite file (real migrations) and real skill folders.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { AuditSink } from "../../src/application/audit-log.js";
import { BuiltinToolRegistry, type ToolOutcome } from "../../src/application/gateway/builtin-tools.js";
import { knowledgeServices, type Knowledge } from "../../src/application/vault/knowledge.js";
import { MemoryService } from "../../src/application/vault/memory.js";
import { SkillService } from "../../src/application/vault/skills.js";
import { registerVaultTools } from "../../src/application/vault/vault-tools.js";
import { openDatabase, type Db } from "../../src/infrastructure/sqlite/database.js";
import { SqliteKnowledgeStore } from "../../src/infrastructure/sqlite/stores/sqlite-knowledge-store.js";
import { SqliteMemoryStore } from "../../src/infrastructure/sqlite/stores/sqlite-memory-store.js";
import { sqliteAuditSink } from "../../src/infrastructure/sqlite/stores/sqlite-audit-log.js";
import { consoleLogger } from "../../src/infrastructure/system/console-logger.js";
import { randomIds, systemClock } from "../../src/infrastructure/system/system-clock.js";
import { UploadedDocumentSource } from "../../src/infrastructure/vault-files/uploaded-document-source.js";
import { FileDocumentSource } from "../../src/infrastructure/vault-files/file-document-source.js";
import { SkillFolderLibrary } from "../../src/infrastructure/vault-files/skill-folder-library.js";
import { skillMd, writeSkill, writeTree } from "../support/vault-fixtures.js";

let home: string;
let db: Db;
let registry: BuiltinToolRegistry;
let knowledge: Knowledge;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "coffer-vault-tools-"));
  db = openDatabase(join(home, "coffer.db"));
  const audit: AuditSink = sqliteAuditSink(db);
  const skillsRoot = join(home, "skills");
  await writeSkill(skillsRoot, "format-python", skillMd("format-python", "Format Python code with black"));
  await writeSkill(skillsRoot, "write-tests", skillMd("write-tests", "Write vitest tests that wait on signals"));
  await writeSkill(skillsRoot, "broken", "---\nname: [oops\n---\nbody");
  await writeSkill(skillsRoot, "no-file", null, { "notes.txt": "no skill here" });
  knowledge = knowledgeServices({
    store: new SqliteKnowledgeStore(db),
    source: new FileDocumentSource(),
    uploads: (files) => new UploadedDocumentSource(files),
    clock: systemClock,
    ids: randomIds,
    logger: consoleLogger("silent"),
    audit,
  });
  registry = new BuiltinToolRegistry();
  registerVaultTools(registry, {
    skills: new SkillService(new SkillFolderLibrary(skillsRoot), audit, systemClock),
    memory: new MemoryService({ store: new SqliteMemoryStore(db), clock: systemClock, ids: randomIds, audit }),
    knowledge,
  });
});
afterAll(async () => {
  db.close();
  await rm(home, { recursive: true, force: true });
});

/** Validates the arguments with the tool's wire schema, as the gateway does, then runs it. */
async function call(name: string, args: unknown = {}, caller = "claude-code"): Promise<ToolOutcome> {
  const tool = registry.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.run(tool.input.parse(args), { caller });
}

async function value(name: string, args: unknown = {}): Promise<any> {
  const out = await call(name, args);
  if (!out.ok) throw new Error(`${name} failed: ${out.error}`);
  return out.value;
}

test("every vault tool is registered with its read-only flag", () => {
  const tools = Object.fromEntries(registry.list().map((t) => [t.name, t.readOnly]));
  expect(tools).toEqual({
    list_skills: true,
    load_skill: true,
    remember: false,
    recall: true,
    update_memory: false,
    forget: false,
    list_memory: true,
    list_knowledge_bases: true,
    search_knowledge: true,
    read_document: true,
  });
  expect(registry.get("list_skills")).toBeUndefined();
});

describe("skills", () => {
  test("the catalogue lists valid skills only; the malformed one breaks nothing", async () => {
    expect(await value("coffer__list_skills")).toEqual({
      skills: [
        { name: "format-python", description: "Format Python code with black" },
        { name: "write-tests", description: "Write vitest tests that wait on signals" },
      ],
    });
  });

  test("load_skill returns the whole SKILL.md, or an error naming the problem", async () => {
    const loaded = await value("coffer__load_skill", { name: "format-python" });
    expect(loaded).toEqual({ name: "format-python", content: skillMd("format-python", "Format Python code with black") });
    expect(await call("coffer__load_skill", { name: "nope" })).toEqual({ ok: false, error: "skill not found: 'nope'" });
    expect(await call("coffer__load_skill", { name: "no-file" })).toEqual({ ok: false, error: "SKILL.md missing for skill: 'no-file'" });
    expect(await call("coffer__load_skill", { name: "  " })).toMatchObject({ ok: false, error: expect.stringContaining("non-empty 'name'") });
    const broken = await call("coffer__load_skill", { name: "broken" });
    expect(broken).toMatchObject({ ok: false, error: expect.stringMatching(/broken.*not valid YAML/) });
    expect(registry.get("coffer__load_skill")!.input.safeParse({}).error?.issues[0]?.path).toEqual(["name"]);
  });
});

describe("memory", () => {
  test("remember, recall, update, forget and list, scoped global or per project", async () => {
    const g = await value("coffer__remember", { text: "The staging database password rotates every Monday", scope: "global" });
    expect(g).toMatchObject({ scope: "global", status: "created", name: "The staging database password rotates every Monday" });
    const p = await value("coffer__remember", { text: "This repo deploys with fly deploy --remote-only", cwd: "/work/proj/" });
    expect(p.scope).toBe("project");
    await value("coffer__remember", { text: "Another project deploys with kubectl", cwd: "/work/other" });

    const recalled = await value("coffer__recall", { query: "how does it deploy", cwd: "/work/proj" });
    expect(recalled.hits.map((h: any) => h.text)).toEqual(["This repo deploys with fly deploy --remote-only"]);
    expect(recalled.hits[0]).toMatchObject({ source: "project:/work/proj", id: p.id });
    expect(recalled.fallback).toBe(true); // "how", "does", "it" are in no fact: any-word matching answered

    const exact = await value("coffer__recall", { query: "staging password", top_k: 3 });
    expect(exact).toMatchObject({ fallback: false, hits: [{ id: g.id, source: "global" }] });
    expect(exact.hits[0].score).toBeGreaterThan(0);
    expect((await value("coffer__recall", { query: "rotates every", mode: "grep" })).hits).toHaveLength(1);
    expect(await call("coffer__recall", { query: "deploy", scope: "project" })).toEqual({ ok: false, error: "scope 'project' needs the project's cwd" });

    expect(await value("coffer__update_memory", { id: p.id, text: "This repo deploys with make release" })).toEqual({ id: p.id, status: "updated" });
    expect((await value("coffer__recall", { query: "make release", cwd: "/work/proj" })).hits[0].id).toBe(p.id);
    expect((await value("coffer__recall", { query: "remote only", cwd: "/work/proj" })).hits).toEqual([]);

    const listed = await value("coffer__list_memory", { cwd: "/work/proj" });
    expect(listed).toMatchObject({ scope: "all", total: 2 });
    expect(listed.facts[0]).toMatchObject({ id: p.id, actor: "claude-code", type: "fact" });
    expect((await value("coffer__list_memory", { scope: "global" })).total).toBe(1);

    expect(await value("coffer__forget", { id: g.id })).toEqual({ id: g.id, status: "forgotten" });
    expect(await call("coffer__forget", { id: g.id })).toEqual({ ok: false, error: `memory not found: '${g.id}'` });
    expect(await call("coffer__update_memory", { id: "missing", text: "x" })).toEqual({ ok: false, error: "memory not found: 'missing'" });
  });
});

describe("knowledge", () => {
  test("list bases, search with snippets, read a document in parts", async () => {
    const docs = join(home, "docs");
    const long = Array.from({ length: 60 }, (_, i) => `Section ${i}. ${"Ordinary prose about nothing in particular. ".repeat(4)}`).join("\n\n");
    await writeTree(docs, {
      "auth/oauth.md": "# OAuth\n\nWe use the PKCE flow; refresh tokens live for 30 days.\n",
      "notes.txt": `${long}\n\nThe zebra migration finished in March.\n`,
      "code/server.ts": "export function listenOnLoopback(port: number) { return port; }\n",
      "image.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]),
    });
    const kb = knowledge.bases.create({ name: "Team notes" });
    const progress: string[] = [];
    const job = await knowledge.imports.now(kb.id, docs, (p) => progress.push(`${p.done}/${p.total}`));
    expect(job).toMatchObject({ status: "done", imported: 3, total: 4, done: 4 });
    expect(job.skipped).toEqual([{ filename: "image.png", reason: "not a text document (.png)" }]);
    expect(progress).toEqual(["1/4", "2/4", "3/4", "4/4"]);

    const bases = await value("coffer__list_knowledge_bases");
    expect(bases.knowledge_bases).toEqual([{ id: kb.id, name: "Team notes", description: "", documents: 3, chunks: expect.any(Number) }]);
    expect(bases.knowledge_bases[0].chunks).toBeGreaterThan(3);

    const found = await value("coffer__search_knowledge", { query: "refresh token lifetime PKCE", kb: "team notes" });
    expect(found.fallback).toBe(true);
    expect(found.hits[0]).toMatchObject({ kb: "Team notes", filename: "auth/oauth.md", chunk: 0 });
    expect(found.hits[0].snippet).toContain("[PKCE]");
    const zebra = await value("coffer__search_knowledge", { query: "zebra migration", top_k: 1 });
    expect(zebra).toMatchObject({ fallback: false, hits: [{ filename: "notes.txt" }] });
    expect(zebra.hits[0].chunk).toBeGreaterThan(0);
    expect((await value("coffer__search_knowledge", { query: "listenOnLoopback" })).hits[0].filename).toBe("code/server.ts");
    expect(await call("coffer__search_knowledge", { query: "x", kb: "nope" })).toEqual({ ok: false, error: "knowledge base not found: 'nope'" });

    const first = await value("coffer__read_document", { document_id: zebra.hits[0].document_id, max_chars: 1000 });
    expect(first).toMatchObject({ filename: "notes.txt", kb: "Team notes", offset: 0, truncated: true });
    expect(first.content).toHaveLength(1000);
    const rest = await value("coffer__read_document", { document_id: zebra.hits[0].document_id, offset: 1000, max_chars: 100_000 });
    expect(rest.truncated).toBe(false);
    expect(first.content + rest.content).toBe(`${long}\n\nThe zebra migration finished in March.\n`);
    expect(await call("coffer__read_document", { document_id: "nope" })).toEqual({ ok: false, error: "document not found: 'nope'" });
  });
});
