import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { acceptance } from "../packages/daemon/test/support/acceptance.js";
import { STEPS, ensureBuilt, files } from "./build.mjs";

const dirs = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function tree(entries) {
  const root = mkdtempSync(join(tmpdir(), "coffer-build-"));
  dirs.push(root);
  for (const [path, body] of Object.entries(entries)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), body);
  }
  return root;
}

/** A step that "compiles" src/ into out/main.js and counts its runs in runs.txt: a real process, like tsc. */
const step = (name, dir) => ({
  name,
  inputs: (root) => files(`${dir}/src`, root),
  outputs: [`${dir}/out/main.js`],
  stamp: `stamps/${name}.stamp`,
  run: [
    process.execPath,
    [
      "-e",
      `const fs=require("fs");fs.mkdirSync("${dir}/out",{recursive:true});fs.writeFileSync("${dir}/out/main.js","built");fs.appendFileSync("${dir}/runs.txt","x")`,
    ],
  ],
});

acceptance("016-speed-footprint", "npm start builds only what changed: a built tree starts without building, a changed source rebuilds its part", () => {
  const root = tree({ "a/src/x.ts": "1", "b/src/y.ts": "1" });
  const steps = [step("a", "a"), step("b", "b")];
  const runs = (dir) => readFileSync(join(root, dir, "runs.txt"), "utf8").length;
  const lines = [];
  const build = () => ensureBuilt({ root, steps, quiet: true, log: (l) => lines.push(l) });

  expect(build()).toEqual(["a", "b"]); // a fresh clone builds everything once
  expect(lines).toEqual(["coffer: building the a…\n", "coffer: building the b…\n"]);
  expect(build()).toEqual([]); // a built tree: nothing runs, nothing printed
  expect(lines).toHaveLength(2);
  writeFileSync(join(root, "b/src/y.ts"), "2");
  expect(build()).toEqual(["b"]); // only the changed part
  writeFileSync(join(root, "a/src/new.ts"), "1");
  expect(build()).toEqual(["a"]); // a new file counts
  rmSync(join(root, "a/out"), { recursive: true });
  expect(build()).toEqual(["a"]); // a deleted output rebuilds though its inputs did not change
  expect(ensureBuilt({ root, steps, force: true, log: () => {} })).toEqual(["a", "b"]);
  expect([runs("a"), runs("b")]).toEqual([4, 3]);
});

test("a failing step throws with its output and keeps its old stamp", () => {
  const root = tree({ "a/src/x.ts": "1" });
  const ok = step("a", "a");
  expect(ensureBuilt({ root, steps: [ok], log: () => {} })).toEqual(["a"]);
  const stamp = readFileSync(join(root, "stamps/a.stamp"), "utf8");
  writeFileSync(join(root, "a/src/x.ts"), "2");
  const failing = { ...ok, run: [process.execPath, ["-e", "console.error('type error in x.ts'); process.exit(2)"]] };
  const lines = [];
  expect(() => ensureBuilt({ root, steps: [failing], quiet: true, log: (l) => lines.push(l) })).toThrow("building the a failed");
  expect(lines.join("")).toContain("type error in x.ts");
  expect(readFileSync(join(root, "stamps/a.stamp"), "utf8")).toBe(stamp);
});

test("the real steps read the sources that shape each output, and no test file", () => {
  const root = join(dirname(new URL(import.meta.url).pathname), "..");
  const [packages, web] = STEPS.map((s) => s.inputs(root));
  expect(packages).toContain("packages/daemon/src/main.ts");
  expect(packages).toContain("packages/protocol/src/routes.ts");
  expect(packages).toContain("package-lock.json");
  expect(packages.some((p) => p.endsWith(".test.ts") || p.includes("/dist/"))).toBe(false);
  expect(web).toContain("packages/protocol/src/routes.ts");
  expect(web).toContain("packages/web/index.html");
});
