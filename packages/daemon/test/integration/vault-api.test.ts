/** Skills, memory and knowledge over real HTTP on a real daemon (real SQLite, real folders). */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { skillMd, writeSkill, writeTree } from "../support/vault-fixtures.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

let t: TestDaemon;
let outside: string;

beforeAll(async () => {
  outside = await mkdtemp(join(tmpdir(), "coffer-vault-src-"));
  t = await startTestDaemon();
});
afterAll(async () => {
  await t.close();
  await rm(outside, { recursive: true, force: true });
});

describe("skills", () => {
  test("a catalogue with a malformed skill lists it with its problem and keeps the rest working", async () => {
    const root = join(t.home, "skills");
    await writeSkill(root, "deploy", skillMd("deploy", "Ship the app"));
    await writeSkill(root, "bad", "---\nname: bad\n---\nno description");
    const res = await t.api.get("/skills");
    expect(res.status).toBe(200);
    expect(res.body.skills).toEqual([
      { folder: "bad", name: null, description: null, problem: "frontmatter needs a non-empty string 'description'" },
      { folder: "deploy", name: "deploy", description: "Ship the app", problem: null },
    ]);
    expect((await t.api.get("/skills/deploy")).body).toMatchObject({ name: "deploy", content: skillMd("deploy", "Ship the app") });
    expect((await t.api.get("/skills/bad")).body).toMatchObject({ folder: "bad", problem: expect.any(String), content: expect.stringContaining("no description") });
    expect(await t.api.get("/skills/missing")).toMatchObject({ status: 404, body: { error: { code: "SKILL_NOT_FOUND" } } });
  });

  test("import copies skill folders in, skips malformed and existing ones, and delete removes one", async () => {
    const src = join(outside, "skills-src");
    await writeSkill(src, "lint-folder", skillMd("lint", "Run the linter"), { "scripts/run.sh": "echo lint\n" });
    await writeSkill(src, "nameless", "---\ndescription: d\n---\n");
    await writeSkill(src, "deploy-again", skillMd("deploy", "Another deploy"));
    const res = await t.api.post("/skills/import", { path: src });
    expect(res.status).toBe(200);
    expect(res.body.imported).toEqual([{ folder: "lint", name: "lint", description: "Run the linter", problem: null }]);
    expect(res.body.skipped).toEqual([
      { folder: "deploy-again", problem: expect.stringContaining("already exists") },
      { folder: "nameless", problem: "frontmatter needs a non-empty string 'name'" },
    ]);
    expect(await readFile(join(t.home, "skills", "lint", "scripts", "run.sh"), "utf8")).toBe("echo lint\n");

    const again = await t.api.post("/skills/import", { path: join(src, "deploy-again"), overwrite: true });
    expect(again.body.imported).toEqual([{ folder: "deploy", name: "deploy", description: "Another deploy", problem: null }]);
    expect((await t.api.get("/skills/deploy")).body.description).toBe("Another deploy");

    expect(await t.api.post("/skills/import", { path: join(outside, "nope") })).toMatchObject({
      status: 422,
      body: { error: { code: "IMPORT_PATH_INVALID" } },
    });
    expect((await t.api.delete("/skills/lint")).status).toBe(204);
    expect((await t.api.get("/skills/lint")).status).toBe(404);
  });
});

describe("memory", () => {
  test("create, read, patch, search, list by scope and delete", async () => {
    const global = await t.api.post("/memory", { text: "The owner prefers tabs over spaces", type: "preference" });
    expect(global.status).toBe(201);
    expect(global.body).toMatchObject({ scope: "global", project: null, actor: "owner", type: "preference" });
    const project = await t.api.post("/memory", { text: "Releases are cut from the main branch", project: "/srv/app" });
    expect(project.body).toMatchObject({ scope: "project", project: "/srv/app" });
    expect(await t.api.post("/memory", { text: "x", scope: "project" })).toMatchObject({ status: 422, body: { error: { code: "VALIDATION_FAILED" } } });
    expect((await t.api.post("/memory", { text: "   " })).status).toBe(422);

    const patched = await t.api.patch(`/memory/${global.body.id}`, { text: "The owner prefers two-space indents", name: "indent style" });
    expect(patched.body).toMatchObject({ name: "indent style", text: "The owner prefers two-space indents" });
    expect((await t.api.get(`/memory/${global.body.id}`)).body.name).toBe("indent style");

    const search = await t.api.get("/memory/search?q=indents&top_k=5");
    expect(search.body).toMatchObject({ fallback: false, hits: [{ id: global.body.id, source: "global" }] });
    expect((await t.api.get("/memory/search?q=releases&project=/srv/app")).body.hits[0].source).toBe("project:/srv/app");

    expect((await t.api.get("/memory")).body.total).toBe(2);
    expect((await t.api.get("/memory?scope=global")).body.facts.map((f: any) => f.id)).toEqual([global.body.id]);
    expect((await t.api.get("/memory?scope=project&project=/srv/app/")).body.total).toBe(1);

    expect((await t.api.delete(`/memory/${global.body.id}`)).status).toBe(204);
    expect(await t.api.get(`/memory/${global.body.id}`)).toMatchObject({ status: 404, body: { error: { code: "MEMORY_NOT_FOUND" } } });
  });
});

describe("knowledge", () => {
  test("create a base, import a folder as a job with progress, search, read and delete", async () => {
    const docs = join(outside, "kb-docs");
    await writeTree(docs, {
      "guide.md": "# Guide\n\nThe backup job runs nightly at 02:00 and keeps 14 copies.\n",
      "src/app.py": "def rotate_backups(keep=14):\n    pass\n",
      "paper.pdf": "%PDF-1.4 not really",
      ".git/config": "[core]\n",
    });
    const kb = await t.api.post("/knowledge", { name: "Ops" });
    expect(kb.status).toBe(201);
    expect(await t.api.post("/knowledge", { name: "ops" })).toMatchObject({ status: 409, body: { error: { code: "KNOWLEDGE_BASE_EXISTS" } } });

    const started = await t.api.post(`/knowledge/${kb.body.id}/imports`, { path: docs });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ kb_id: kb.body.id, total: 3 });
    let job = started.body;
    // Poll the job until it publishes its end state (bounded by the test timeout).
    while (job.status === "running") job = (await t.api.get(`/knowledge/imports/${job.id}`)).body;
    expect(job).toMatchObject({ status: "done", done: 3, total: 3, imported: 2, error: null });
    expect(job.skipped).toEqual([{ filename: "paper.pdf", reason: expect.stringContaining("PDF") }]);

    const base = (await t.api.get("/knowledge/ops")).body;
    expect(base).toMatchObject({ id: kb.body.id, documents: 2, chunks: 2 });
    const listed = (await t.api.get(`/knowledge/${kb.body.id}/documents`)).body.documents;
    expect(listed.map((d: any) => d.filename)).toEqual(["guide.md", "src/app.py"]);

    const hits = (await t.api.get("/knowledge/search?q=backup%20nightly&kb=Ops")).body;
    expect(hits.hits[0]).toMatchObject({ filename: "guide.md", kb: "Ops" });
    expect(hits.hits[0].snippet).toMatch(/\[backup\]|\[nightly\]/);
    const doc = (await t.api.get(`/knowledge/documents/${hits.hits[0].document_id}`)).body;
    expect(doc.content).toContain("keeps 14 copies");

    // Re-importing a file replaces its document instead of duplicating it.
    const again = await t.api.post(`/knowledge/${kb.body.id}/imports`, { path: join(docs, "guide.md") });
    let second = again.body;
    while (second.status === "running") second = (await t.api.get(`/knowledge/imports/${second.id}`)).body;
    expect(second).toMatchObject({ status: "done", imported: 1 });
    expect((await t.api.get("/knowledge/ops")).body.documents).toBe(2);

    expect((await t.api.get(`/knowledge/documents/${doc.id}`)).status).toBe(404);
    const current = (await t.api.get(`/knowledge/${kb.body.id}/documents`)).body.documents.find((d: any) => d.filename === "guide.md");
    expect((await t.api.delete(`/knowledge/documents/${current.id}`)).status).toBe(204);
    expect((await t.api.get("/knowledge/ops")).body.documents).toBe(1);
    expect(await t.api.post(`/knowledge/${kb.body.id}/imports`, { path: "/definitely/not/here" })).toMatchObject({
      status: 422,
      body: { error: { code: "IMPORT_PATH_INVALID" } },
    });
    expect((await t.api.patch("/knowledge/ops", { description: "runbooks" })).body.description).toBe("runbooks");
    expect((await t.api.delete("/knowledge/ops")).status).toBe(204);
    expect((await t.api.get("/knowledge/search?q=rotate")).body.hits).toEqual([]);
    expect(await t.api.get(`/knowledge/${kb.body.id}`)).toMatchObject({ status: 404, body: { error: { code: "KNOWLEDGE_BASE_NOT_FOUND" } } });
    expect(await t.api.get("/knowledge/imports/nope")).toMatchObject({ status: 404, body: { error: { code: "IMPORT_NOT_FOUND" } } });
  });
});
