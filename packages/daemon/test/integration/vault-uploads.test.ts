/** Uploads from the page and skills written in it, over real HTTP on a real daemon (real SQLite, real folders). */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { UPLOAD_MAX_BODY_BYTES, type ImportJobOut } from "@coffer/protocol";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const SPEC = "015-page-basics";
let t: TestDaemon;

beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(async () => {
  await t.close();
});

const b64 = (text: string | Uint8Array) => Buffer.from(text).toString("base64");
const file = (path: string, text: string | Uint8Array) => ({ path, content_base64: b64(text) });

async function raw(path: string, body: string) {
  const res = await fetch(`${t.daemon.url}/api/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${t.daemon.token}`, "content-type": "application/json" },
    body,
  });
  return { status: res.status, body: (await res.json()) as { error: { code: string; message: string; details: Record<string, unknown> | null } } };
}

/** Polls the import until it is no longer running: the job is the published signal. */
async function finished(job: ImportJobOut): Promise<ImportJobOut> {
  let now = job;
  while (now.status === "running") now = (await t.api.get(`/knowledge/imports/${job.id}`)).body as ImportJobOut;
  return now;
}

describe("knowledge uploads", () => {
  acceptance(SPEC, "files uploaded from the page are imported with the same progress and skip reasons as a path import", async () => {
    const kb = (await t.api.post("/knowledge", { name: "uploaded" })).body;
    const res = await t.api.post(`/knowledge/${kb.id}/uploads`, {
      label: "notes",
      files: [
        file("notes/guide.md", "# Guide\n\nDeploys go through **staging** first.\n"),
        file("notes/logo.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47])),
        file("notes/blob.txt", new Uint8Array([0x68, 0x00, 0x69])),
        file("notes/.hidden/secret.md", "never read"),
        file("notes/node_modules/x.md", "tooling"),
      ],
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ kb_id: kb.id, path: "notes", total: 3 });
    const done = await finished(res.body);
    expect(done).toMatchObject({ status: "done", done: 3, total: 3, imported: 1, error: null });
    expect(done.skipped).toEqual([
      { filename: "notes/logo.png", reason: "not a text document (.png)" },
      { filename: "notes/blob.txt", reason: "binary file" },
    ]);
    const docs = (await t.api.get(`/knowledge/${kb.id}/documents`)).body.documents;
    expect(docs.map((d: { filename: string }) => d.filename)).toEqual(["notes/guide.md"]);
    const hits = (await t.api.get(`/knowledge/search?q=staging&kb=${kb.id}`)).body.hits;
    expect(hits[0]).toMatchObject({ filename: "notes/guide.md" });
  });

  test("bad uploads get clear 4xx envelopes, never 500: a path leaving the upload, bad base64, no files, duplicates, an unknown base", async () => {
    const kb = (await t.api.post("/knowledge", { name: "strict" })).body;
    const post = (files: unknown) => t.api.post(`/knowledge/${kb.id}/uploads`, { files });
    for (const path of ["../escape.md", "/etc/passwd", "a//b.md", "a/./b.md", "a\\b.md"]) {
      const res = await post([file(path, "x")]);
      expect(res, path).toMatchObject({ status: 422, body: { error: { code: "VALIDATION_FAILED" } } });
      expect(res.body.error.details.issues[0].path).toBe("files.0.path");
    }
    expect(await post([{ path: "a.md", content_base64: "not base64!" }])).toMatchObject({ status: 422, body: { error: { code: "VALIDATION_FAILED" } } });
    expect(await post([])).toMatchObject({ status: 422, body: { error: { code: "VALIDATION_FAILED" } } });
    expect(await post([file("a.md", "x"), file("a.md", "y")])).toMatchObject({ status: 422, body: { error: { message: expect.stringContaining("share one path") } } });
    expect(await t.api.post("/knowledge/nope/uploads", { files: [file("a.md", "x")] })).toMatchObject({
      status: 404,
      body: { error: { code: "KNOWLEDGE_BASE_NOT_FOUND" } },
    });
    expect((await t.api.get(`/knowledge/${kb.id}/documents`)).body.documents).toEqual([]);
  });

  acceptance(SPEC, "an upload over the limit is refused with 413 UPLOAD_TOO_LARGE and a message saying the limit", async () => {
    const kb = (await t.api.post("/knowledge", { name: "big" })).body;
    // Just over the limit, as one JSON body: the daemon stops reading at the cap.
    const body = JSON.stringify({ files: [{ path: "big.md", content_base64: "A".repeat(UPLOAD_MAX_BODY_BYTES) }] });
    const res = await raw(`/knowledge/${kb.id}/uploads`, body);
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ code: "UPLOAD_TOO_LARGE", details: { limit_bytes: UPLOAD_MAX_BODY_BYTES } });
    expect(res.body.error.message).toContain(`${UPLOAD_MAX_BODY_BYTES / 1024 / 1024} MB`);
    // A body over the default 1 MiB but under the upload limit is read: uploads have their own cap.
    const mid = await t.api.post(`/knowledge/${kb.id}/uploads`, { files: [file("mid.md", "word ".repeat(300_000))] });
    expect(mid.status).toBe(202);
    expect(await finished(mid.body)).toMatchObject({ status: "done", imported: 1 });
    // Other routes keep the 1 MiB default.
    const other = await raw("/knowledge", JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) }));
    expect(other).toMatchObject({ status: 413, body: { error: { code: "PAYLOAD_TOO_LARGE" } } });
  });
});

describe("skill uploads and skills written in the page", () => {
  const skill = (name: string, description: string, body = "Steps.\n") => `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`;

  acceptance(SPEC, "a skill folder uploaded from the page lands in the vault like an import by path", async () => {
    const res = await t.api.post("/skills/uploads", {
      files: [
        file("skills/release-notes/SKILL.md", skill("release-notes", "Write release notes")),
        file("skills/release-notes/templates/notes.md", "# Notes\n"),
        file("skills/broken/SKILL.md", "no frontmatter"),
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.imported).toEqual([{ folder: "release-notes", name: "release-notes", description: "Write release notes", problem: null }]);
    expect(res.body.skipped).toEqual([{ folder: "broken", problem: expect.stringContaining("no frontmatter") }]);
    expect(await readFile(join(t.home, "skills", "release-notes", "templates", "notes.md"), "utf8")).toBe("# Notes\n");
    // A lone SKILL.md (one file picked) works too; an existing name is skipped unless overwrite.
    const again = await t.api.post("/skills/uploads", { files: [file("SKILL.md", skill("release-notes", "Newer"))] });
    expect(again.body).toMatchObject({ imported: [], skipped: [{ folder: "upload", problem: expect.stringContaining("already exists") }] });
    const replaced = await t.api.post("/skills/uploads", { files: [file("SKILL.md", skill("release-notes", "Newer"))], overwrite: true });
    expect(replaced.body.imported).toEqual([{ folder: "release-notes", name: "release-notes", description: "Newer", problem: null }]);
    // Nothing of the upload's staging is left in the library.
    expect((await t.api.get("/skills")).body.skills.map((s: { folder: string }) => s.folder)).not.toContain(expect.stringMatching(/^\./));
    expect(await t.api.post("/skills/uploads", { files: [file("../x/SKILL.md", "x")] })).toMatchObject({ status: 422, body: { error: { code: "VALIDATION_FAILED" } } });
  });

  acceptance(SPEC, "a skill written in the page is saved as SKILL.md; a bad name or a taken one is refused with a field-level error", async () => {
    const res = await t.api.post("/skills", { name: "triage", description: "Triage: label and route new issues", body: "# Triage\n\n1. Read it.\n" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ folder: "triage", name: "triage", description: "Triage: label and route new issues", problem: null });
    expect(res.body.content).toContain("# Triage\n\n1. Read it.");
    // The description has a colon: the frontmatter is written as YAML, so it reads back whole.
    expect((await t.api.get("/skills")).body.skills).toContainEqual({ folder: "triage", name: "triage", description: "Triage: label and route new issues", problem: null });

    const badName = await t.api.post("/skills", { name: "no spaces", description: "d", body: "" });
    expect(badName).toMatchObject({ status: 422, body: { error: { code: "VALIDATION_FAILED" } } });
    expect(badName.body.error.details.issues[0].path).toBe("name");
    const noDescription = await t.api.post("/skills", { name: "ok", description: "  ", body: "" });
    expect(noDescription.body.error.details.issues[0]).toMatchObject({ path: "description", message: "say when an agent should use this skill" });
    expect(await t.api.post("/skills", { name: "triage", description: "again", body: "" })).toMatchObject({
      status: 409,
      body: { error: { code: "SKILL_EXISTS", details: { name: "triage" } } },
    });
  });
});
