/** Odd paths in uploads from the page: each one a clear 422, never a 500 (issue 21, W11). Real daemon, real folders. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { acceptance } from "../support/acceptance.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";
import { skillMd } from "../support/vault-fixtures.js";

const SPEC = "021-hardening";
let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(async () => {
  await t.close();
});

const file = (path: string, text = "# x\n") => ({ path, content_base64: Buffer.from(text).toString("base64") });
const skill = (path: string) => file(path, skillMd("odd-skill", "Odd."));

/** Each case: what the owner's browser sent. Every one must be refused as a client mistake. */
const CASES: { what: string; files: ReturnType<typeof file>[] }[] = [
  { what: "a name longer than a file system allows", files: [skill(`${"a".repeat(300)}/SKILL.md`)] },
  { what: "a name within 255 characters but over 255 bytes", files: [skill(`${"é".repeat(200)}/SKILL.md`)] },
  { what: "a path longer than the total allowed", files: [skill(`${Array.from({ length: 8 }, () => "b".repeat(200)).join("/")}/SKILL.md`)] },
  { what: "a file where a folder is", files: [file("x/notes"), skill("x/notes/SKILL.md")] },
  { what: "a folder where a file is", files: [skill("x/notes/SKILL.md"), file("x/notes")] },
  { what: "the same path twice", files: [skill("x/SKILL.md"), skill("x/SKILL.md")] },
  { what: "an absolute path", files: [skill("/etc/SKILL.md")] },
  { what: "a path leaving the upload", files: [skill("../SKILL.md")] },
  { what: "an empty segment", files: [skill("x//SKILL.md")] },
];

acceptance(SPEC, "odd upload paths (too long, a folder, an existing one) get a clear 422, never a 500", async () => {
  const kb = (await t.api.post("/knowledge", { name: "odd" })).body;
  const seen: { route: string; what: string; status: number; code: unknown }[] = [];
  for (const route of ["/skills/uploads", `/knowledge/${kb.id}/uploads`]) {
    for (const c of CASES) {
      const res = await t.api.post(route, { files: c.files });
      seen.push({ route, what: c.what, status: res.status, code: res.body.error?.code });
    }
  }
  expect(seen).toEqual(seen.map((s) => ({ ...s, status: 422, code: expect.stringMatching(/^(VALIDATION_FAILED|UPLOAD_PATH_INVALID)$/) })));
  // An existing skill folder is no path problem: it is reported as skipped (overwrite replaces it).
  const once = await t.api.post("/skills/uploads", { files: [skill("odd/SKILL.md")] });
  expect(once.status).toBe(200);
  const again = await t.api.post("/skills/uploads", { files: [skill("odd/SKILL.md")] });
  expect(again.status).toBe(200);
  expect(again.body.skipped).toEqual([{ folder: "odd", problem: expect.stringContaining("already exists") }]);
  // A file (not a folder) under the skill's name in the library: said in words, not a 500 (ENOTDIR).
  writeFileSync(join(t.home, "skills", "in-the-way"), "not a skill");
  const blocked = await t.api.post("/skills/uploads", { files: [file("w/SKILL.md", skillMd("in-the-way", "Blocked."))] });
  expect(blocked.status).toBe(200);
  expect(blocked.body.skipped).toEqual([{ folder: "w", problem: "a file named 'in-the-way' is in the library's way" }]);
});
