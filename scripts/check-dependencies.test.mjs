import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, test } from "vitest";
import { checkDependencies } from "./check-dependencies.mjs";

const dirs = [];
function tree(files) {
  const root = mkdtempSync(join(tmpdir(), "deps-"));
  dirs.push(root);
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), body);
  }
  return root;
}
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

test("the daemon's real source keeps every rule", () => {
  const src = join(dirname(fileURLToPath(import.meta.url)), "..", "packages", "daemon", "src");
  expect(checkDependencies(src)).toEqual([]);
});

test("an inward-pointing tree passes", () => {
  const root = tree({
    "domain/a.ts": `import type { X } from "@coffer/protocol";`,
    "application/b.ts": `import { a } from "../domain/a.js";`,
    "infrastructure/sqlite/c.ts": `import Database from "better-sqlite3";\nimport type { P } from "../../application/b.js";`,
    "http/d.ts": `import { Hono } from "hono";\nimport { b } from "../application/b.js";`,
    "main.ts": `import { c } from "./infrastructure/sqlite/c.js";`,
  });
  expect(checkDependencies(root)).toEqual([]);
});

test("each forbidden import is reported", () => {
  const root = tree({
    "domain/a.ts": `import { b } from "../application/b.js";`,
    "application/b.ts": `import Database from "better-sqlite3";\nimport { s } from "../infrastructure/sqlite/s.js";`,
    "http/c.ts": `import { s } from "../infrastructure/sqlite/s.js";`,
    "infrastructure/agents/d.ts": `import { s } from "../sqlite/s.js";`,
    "infrastructure/sqlite/s.ts": `import { spawn } from "node:child_process";`,
  });
  const v = checkDependencies(root);
  expect(v).toHaveLength(6);
  expect(v.join("\n")).toMatch(/domain must not import application/);
  expect(v.join("\n")).toMatch(/better-sqlite3 may only be used in infrastructure\/sqlite/);
  expect(v.join("\n")).toMatch(/http must not import infrastructure/);
  expect(v.join("\n")).toMatch(/infrastructure\/agents must not reach into infrastructure\/sqlite/);
  expect(v.join("\n")).toMatch(/node:child_process may only be used in infrastructure\/agents/);
});
