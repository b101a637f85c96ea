import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { audit } from "./verify-acceptance.mjs";

const dirs = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A repo with a two-scenario catalogue and one vitest JSON report holding `results`. */
function fixture(results) {
  const root = mkdtempSync(join(tmpdir(), "acc-"));
  dirs.push(root);
  mkdirSync(join(root, "docs/acceptance"), { recursive: true });
  writeFileSync(
    join(root, "docs/acceptance/008-agent-chat.json"),
    JSON.stringify({ spec: "008-agent-chat", scenarios: [{ id: "a", title: "alpha" }, { id: "b", title: "beta" }], pending: {} }),
  );
  const report = join(root, "unit.json");
  writeFileSync(report, JSON.stringify({ testResults: [{ name: join(root, "x.test.ts"), assertionResults: results }] }));
  return { root, report };
}
const result = (title, status, ancestorTitles = []) => ({ title, status, ancestorTitles });
const proved = ({ rows }) => Object.fromEntries(rows.map((r) => [r.id, r.tests.length]));

test("only a tagged test that ran and passed proves its scenario", () => {
  const { root, report } = fixture([
    result("[008-agent-chat] alpha", "passed", ["claude_code"]),
    result("[008-agent-chat] alpha", "passed", ["codex"]),
    result("[008-agent-chat] beta", "skipped"),
    result("[008-agent-chat] beta", "failed"),
    result("beta", "passed"), // untagged: proves nothing
  ]);
  const out = audit([report], root);
  expect(proved(out)).toEqual({ a: 2, b: 0 });
  expect(out.rows.find((r) => r.id === "b").failed).toEqual(["x.test.ts"]);
  expect(out.rows.find((r) => r.id === "a").tests).toEqual(["x.test.ts › claude_code", "x.test.ts › codex"]);
});

test("a passing tag that names no scenario is an orphan; another spec's tags are ignored", () => {
  const { root, report } = fixture([result("[008-agent-chat] gamma", "passed"), result("[009-other] alpha", "passed")]);
  const out = audit([report], root);
  expect(out.orphans).toEqual(['x.test.ts: "gamma"']);
  expect(proved(out)).toEqual({ a: 0, b: 0 });
});

test("several reports (unit and e2e) are merged", () => {
  const one = fixture([result("[008-agent-chat] alpha", "passed")]);
  const two = join(one.root, "e2e.json");
  writeFileSync(two, JSON.stringify({ testResults: [{ name: join(one.root, "y.e2e.ts"), assertionResults: [result("[008-agent-chat] beta", "passed")] }] }));
  expect(proved(audit([one.report, two], one.root))).toEqual({ a: 1, b: 1 });
});

test("every spec's catalogue is read; a tag naming no catalogue is reported", async () => {
  const { root, report } = fixture([result("[013-other] one", "passed"), result("[099-typo] one", "passed")]);
  writeFileSync(join(root, "docs/acceptance/013-other.json"), JSON.stringify({ spec: "013-other", scenarios: [{ id: "o", title: "one" }], pending: {} }));
  const { catalogueFiles, unknownSpecTags } = await import("./verify-acceptance.mjs");
  expect(catalogueFiles(root)).toEqual(["008-agent-chat.json", "013-other.json"]);
  expect(proved(audit([report], root, "013-other.json"))).toEqual({ o: 1 });
  expect(unknownSpecTags([report], ["008-agent-chat", "013-other"], root)).toEqual(['x.test.ts: "[099-typo] one"']);
});

test("a browser-only scenario waits for an e2e report, then is required", async () => {
  const { root, report } = fixture([result("[008-agent-chat] alpha", "passed")]);
  writeFileSync(
    join(root, "docs/acceptance/008-agent-chat.json"),
    JSON.stringify({ spec: "008-agent-chat", scenarios: [{ id: "a", title: "alpha" }, { id: "b", title: "beta", e2e: true }], pending: {} }),
  );
  const unitOnly = audit([report], root);
  expect(unitOnly.rows.find((r) => r.id === "b").awaitingE2e).toBe(true);
  const e2e = join(root, "e2e.json");
  writeFileSync(e2e, JSON.stringify({ testResults: [{ name: join(root, "page.e2e.ts"), assertionResults: [] }] }));
  const both = audit([report, e2e], root);
  expect(both.rows.find((r) => r.id === "b")).toMatchObject({ awaitingE2e: false, tests: [] });
});
