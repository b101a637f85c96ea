import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestDaemon, type TestDaemon } from "../../daemon/test/support/test-daemon.js";
import { skillMd, writeSkill, writeTree } from "../../daemon/test/support/vault-fixtures.js";
import { cofferAgainst } from "./support/run-cli.js";

let t: TestDaemon;
let src: string;

beforeAll(async () => {
  t = await startTestDaemon();
  src = await mkdtemp(join(tmpdir(), "coffer-cli-vault-"));
});
afterAll(async () => {
  await t.close();
  await rm(src, { recursive: true, force: true });
});

const coffer = (args: string[], stdin = "") => cofferAgainst(t, args, stdin);

describe("coffer skills | memory | kb", { timeout: 90_000 }, () => {
  test("skills: import, list with a malformed one, show, --json", async () => {
    await writeSkill(join(src, "skills"), "review", skillMd("review", "Review a pull request"));
    await writeSkill(join(t.home, "skills"), "broken", "no frontmatter at all");
    expect((await coffer(["skills", "import", join(src, "skills")])).stdout).toBe("imported review\n");
    const ls = await coffer(["skills", "ls"]);
    expect(ls.stdout).toMatch(/broken\s+✗ SKILL.md has no frontmatter/);
    expect(ls.stdout).toMatch(/review\s+Review a pull request/);
    expect(JSON.parse((await coffer(["skills", "ls", "--json"])).stdout).skills).toHaveLength(2);
    expect((await coffer(["skills", "show", "review"])).stdout).toContain("name: review");
    const missing = await coffer(["skills", "show", "nope"]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain("[SKILL_NOT_FOUND]");
  });

  test("memory: add, search, ls, edit, rm", async () => {
    const id = (await coffer(["memory", "add", "The CI runners are on arm64", "--type", "infra"])).stdout.trim();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    const found = JSON.parse((await coffer(["memory", "search", "arm64 runners", "--json"])).stdout);
    expect(found.hits[0]).toMatchObject({ id, source: "global" });
    expect((await coffer(["memory", "ls"])).stdout).toMatch(new RegExp(`${id}\\s+infra\\s+The CI runners are on arm64`));
    expect((await coffer(["memory", "edit", id, "The CI runners are on x86"])).stdout).toBe(`updated ${id}\n`);
    expect((await coffer(["memory", "rm", id])).code).toBe(0);
    expect((await coffer(["memory", "rm", id])).code).toBe(3);
  });

  test("kb: create, import with a report, docs, search", async () => {
    await writeTree(join(src, "docs"), { "a.md": "The release train leaves on Thursdays.\n", "b.bin": Buffer.from([0, 1, 2]) });
    expect((await coffer(["kb", "create", "handbook"])).code).toBe(0);
    const imported = await coffer(["kb", "import", "handbook", join(src, "docs")]);
    expect(imported.stdout).toBe("imported 1 of 2 files\nskipped  b.bin: not a text document (.bin)\n");
    const job = JSON.parse((await coffer(["kb", "import", "handbook", join(src, "docs", "a.md"), "--json"])).stdout);
    expect(job).toMatchObject({ status: "done", imported: 1, done: 1, total: 1 });
    expect((await coffer(["kb", "docs", "handbook"])).stdout).toMatch(/1 chunks\s+a\.md/);
    expect((await coffer(["kb", "ls"])).stdout).toMatch(/handbook\s+1 docs\s+1 chunks/);
    expect((await coffer(["kb", "search", "release train"])).stdout).toContain("handbook/a.md#0");
    const bad = await coffer(["kb", "import", "handbook", join(src, "absent")]);
    expect(bad.code).toBe(4);
    expect(bad.stderr).toContain("[IMPORT_PATH_INVALID]");
  });
});
