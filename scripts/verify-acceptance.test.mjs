import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
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

// ---- The reports themselves: missing, stale, partial, flaky (issue 24) ----

/** A repo with one unit test file on disk and a report of it (`over` changes the report). */
function repo({ files = ["packages/a/test/one.test.ts"], over = {}, reported = files } = {}) {
  const root = mkdtempSync(join(tmpdir(), "acc-run-"));
  dirs.push(root);
  for (const f of files) {
    mkdirSync(join(root, f, ".."), { recursive: true });
    writeFileSync(join(root, f), "");
  }
  const report = join(root, ".test-reports/unit.json");
  mkdirSync(join(root, ".test-reports"), { recursive: true });
  const body = {
    startTime: 2_000,
    success: true,
    testResults: reported.map((f) => ({ name: join(root, f), status: "passed", assertionResults: [result("[008-agent-chat] alpha", "passed")] })),
    ...over,
  };
  writeFileSync(report, JSON.stringify(body));
  return { root, report };
}

test("[024-proof-holes] verify:acceptance fails on a missing, stale or partial report, and a test that passed only on its retry is flaky, not proof", async () => {
  const { checkReports } = await import("./verify-acceptance.mjs");
  const run = { started_at: 1_000 };

  // Fresh (its run started after ours) and whole (every test file of the suite is in it): fine.
  const ok = repo();
  expect(checkReports({ unit: ok.report }, run, ok.root).problems).toEqual([]);

  // Missing: the check needs it; never "nothing to prove".
  expect(checkReports({ unit: ok.report, e2e: join(ok.root, ".test-reports/e2e.json") }, run, ok.root).problems).toEqual([
    "e2e report missing: .test-reports/e2e.json (npm run test:e2e writes it)",
  ]);
  // No marker: the run never recorded its start, so no report can be shown to be from it.
  expect(checkReports({ unit: ok.report }, null, ok.root).problems[0]).toMatch(/^no run marker/);

  // Stale: written by a run that started before this one.
  const stale = repo({ over: { startTime: 500 } });
  expect(checkReports({ unit: stale.report }, run, stale.root).problems).toEqual([
    "unit report stale: .test-reports/unit.json is from a run that started 1970-01-01T00:00:00.500Z, before this run (1970-01-01T00:00:01.000Z)",
  ]);

  // Partial: a test file of the suite is absent (a filtered run), or vitest said it did not succeed.
  const filtered = repo({ files: ["packages/a/test/one.test.ts", "packages/a/src/two.test.ts"], reported: ["packages/a/test/one.test.ts"] });
  expect(checkReports({ unit: filtered.report }, run, filtered.root).problems).toEqual([
    "unit report partial: .test-reports/unit.json lacks 1 of the suite's test files (a filtered or interrupted run): packages/a/src/two.test.ts",
  ]);
  const interrupted = repo({ over: { success: false } });
  expect(checkReports({ unit: interrupted.report }, run, interrupted.root).problems).toEqual([
    "unit report partial: .test-reports/unit.json says the run did not succeed (failed, or interrupted)",
  ]);

  // Flaky: passed only on its retry (marked in the report, or listed beside it) proves nothing.
  const retried = repo({ files: [], reported: [] });
  const e2e = join(retried.root, "e2e.json");
  mkdirSync(join(retried.root, "docs/acceptance"), { recursive: true });
  writeFileSync(
    join(retried.root, "docs/acceptance/008-agent-chat.json"),
    JSON.stringify({ spec: "008-agent-chat", scenarios: [{ id: "a", title: "alpha" }, { id: "b", title: "beta" }], pending: {} }),
  );
  writeFileSync(
    e2e,
    JSON.stringify({
      startTime: 2_000,
      success: true,
      testResults: [
        {
          name: join(retried.root, "page.e2e.ts"),
          assertionResults: [
            { ...result("[008-agent-chat] alpha", "passed"), fullName: "[008-agent-chat] alpha", meta: { retried: 1 } },
            { ...result("[008-agent-chat] beta", "passed"), fullName: "[008-agent-chat] beta", meta: {} },
          ],
        },
      ],
    }),
  );
  writeFileSync(join(retried.root, "e2e.flaky.json"), JSON.stringify([{ file: "page.e2e.ts", name: "[008-agent-chat] beta", firstError: "boom" }]));
  const { flaky } = checkReports({ e2e }, run, retried.root);
  expect(flaky).toEqual([
    { file: "page.e2e.ts", name: "[008-agent-chat] alpha" },
    { file: "page.e2e.ts", name: "[008-agent-chat] beta" },
  ]);
  const out = audit([e2e], retried.root, "008-agent-chat.json", { e2eRequired: true, flaky });
  expect(proved(out)).toEqual({ a: 0, b: 0 });
  expect(out.rows.map((r) => r.flaky)).toEqual([["page.e2e.ts"], ["page.e2e.ts"]]);
});

test("npm test's check waits for the e2e report; CI's check (--e2e) requires it", async () => {
  const { reportPaths } = await import("./verify-acceptance.mjs");
  const root = "/repo";
  expect(reportPaths([], {}, root)).toEqual({ unit: "/repo/.test-reports/unit.json" });
  expect(reportPaths([], { COFFER_TEST_REPORT: "/ci/unit.json" }, root)).toEqual({ unit: "/ci/unit.json" });
  expect(reportPaths(["--unit", "/ci/unit.json", "--e2e", "/ci/e2e.json"], {}, root)).toEqual({ unit: "/ci/unit.json", e2e: "/ci/e2e.json" });
  const { root: r, report } = fixture([result("[008-agent-chat] alpha", "passed")]);
  writeFileSync(
    join(r, "docs/acceptance/008-agent-chat.json"),
    JSON.stringify({ spec: "008-agent-chat", scenarios: [{ id: "a", title: "alpha" }, { id: "b", title: "beta", e2e: true }], pending: {} }),
  );
  expect(audit([report], r, "008-agent-chat.json", { e2eRequired: false }).rows[1].awaitingE2e).toBe(true);
  expect(audit([report], r, "008-agent-chat.json", { e2eRequired: true }).rows[1].awaitingE2e).toBe(false);
});

test("the suites' test files are the vitest configs' own include globs", async () => {
  const { SUITES, globRegExp } = await import("./verify-acceptance.mjs");
  const unit = (await import("../vitest.config.ts")).default;
  const e2e = (await import("../e2e/vitest.config.ts")).default;
  expect(new Set(SUITES.unit)).toEqual(new Set(unit.test.projects.flatMap((p) => p.test.include)));
  expect(SUITES.e2e).toEqual(e2e.test.include);
  expect(globRegExp("packages/*/src/**/*.test.ts").test("packages/daemon/src/a/b/c.test.ts")).toBe(true);
  expect(globRegExp("packages/*/src/**/*.test.ts").test("packages/daemon/src/c.test.ts")).toBe(true);
  expect(globRegExp("packages/*/src/**/*.test.ts").test("packages/daemon/x/src/c.test.ts")).toBe(false);
  expect(globRegExp("packages/web/test/**/*.test.{ts,tsx}").test("packages/web/test/a.test.tsx")).toBe(true);
});

test("a real vitest run with a retry: the test that passed on its retry is marked in the report and is not proof", { timeout: 90_000 }, async () => {
  const { spawnSync } = await import("node:child_process");
  const { fileURLToPath } = await import("node:url");
  const { checkReports } = await import("./verify-acceptance.mjs");
  const repoRoot = fileURLToPath(new URL("..", import.meta.url));
  // Inside the repo (so `vitest` resolves) but in the git-ignored reports folder no suite reads.
  mkdirSync(join(repoRoot, ".test-reports"), { recursive: true });
  const dir = mkdtempSync(join(repoRoot, ".test-reports/flaky-run-"));
  dirs.push(dir);
  writeFileSync(
    join(dir, "retry.test.mjs"),
    `import { test, expect } from "vitest";
let tries = 0;
test("[008-agent-chat] alpha", () => { tries += 1; expect(tries).toBe(2); });
test("[008-agent-chat] beta", () => {});
`,
  );
  const report = join(dir, "e2e.json");
  writeFileSync(
    join(dir, "vitest.config.mjs"),
    `import FlakyReporter from ${JSON.stringify(join(repoRoot, "e2e/support/flaky-reporter.ts"))};
export default { test: { root: ${JSON.stringify(dir)}, include: ["*.test.mjs"], retry: 1,
  reporters: [["json", { outputFile: ${JSON.stringify(report)} }], new FlakyReporter(${JSON.stringify(report)})] } };
`,
  );
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VITEST")));
  const run = spawnSync(process.execPath, [join(repoRoot, "node_modules/vitest/vitest.mjs"), "run", "--config", join(dir, "vitest.config.mjs")], {
    cwd: repoRoot,
    env,
    encoding: "utf8",
  });
  expect(run.status, run.stderr + run.stdout).toBe(0);
  const written = JSON.parse(readFileSync(report, "utf8"));
  const alpha = written.testResults[0].assertionResults.find((t) => t.title.endsWith("alpha"));
  expect(alpha).toMatchObject({ status: "passed", meta: { retried: 1 } });
  // Found both in the report and in the list beside it, under one name.
  const { flaky } = checkReports({ e2e: report }, { started_at: 0 }, repoRoot);
  expect(flaky).toEqual([{ file: relative(repoRoot, join(dir, "retry.test.mjs")), name: "[008-agent-chat] alpha" }]);
});
