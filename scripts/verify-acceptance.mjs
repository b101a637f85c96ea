#!/usr/bin/env node
// Lists the spec's acceptance scenarios and the tests that PROVED them in this run: it reads
// the runner's JSON reports (vitest's json reporter), not the source, so a tagged test that
// was skipped, filtered out or failed covers nothing. A tagged test is one whose title is
// "[<spec>] <scenario title>" (test/support/acceptance.ts puts the tag in the name). Fails when
// a scenario in force has no passing tagged test, or a passing test names a scenario the spec
// does not have. Scenarios not built yet sit in an explicit pending set. Every catalogue in
// docs/acceptance/ (one per spec: 008-agent-chat, 013-telegram-channel, …) is audited.
//
// Strict about the reports themselves (docs/decisions.md, "verify:acceptance is strict"):
//  - missing: a report the check needs is not there → FAILED (never "nothing to prove");
//  - stale: the report's run started before this run did — `--begin` (npm test's first step)
//    writes the run's start to .test-reports/run.json ($COFFER_TEST_RUN), and every report
//    must come from a vitest run that started after it → FAILED;
//  - partial: the report is not of a whole suite (a test file the suite has is absent from it:
//    a filtered or interrupted run), or vitest marked it `success: false` → FAILED;
//  - flaky: a test that passed only on its retry (CI retries a browser test once) is listed as
//    FLAKY and proves nothing.
// `npm test` runs the unit suite only: its check needs the unit report and lists browser-only
// scenarios ("e2e": true) as awaiting the e2e report. CI (.ci/run) checks again after the e2e
// suite with `--e2e <report>`: then the e2e report is required, fresh and whole, too.
//
// Usage: verify-acceptance.mjs --begin                      (record the run's start)
//        verify-acceptance.mjs [--unit <r>] [--e2e <r>]     (audit; unit defaults to
//        $COFFER_TEST_REPORT or .test-reports/unit.json)
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const TAG = /^\[([^\]]+)\] (.+)$/;

/**
 * The test files each suite has: the `include` globs of vitest.config.ts (all its projects; the
 * `alone` project's two are parts of the node project's, which leaves them to it) and
 * e2e/vitest.config.ts, kept equal to them by verify-acceptance.test.mjs. A report that lacks
 * one of these files is partial.
 */
export const SUITES = {
  unit: [
    "packages/*/src/**/*.test.ts",
    "packages/*/test/**/*.test.ts",
    "scripts/**/*.test.mjs",
    "packages/web/src/**/*.test.{ts,tsx}",
    "packages/web/test/**/*.test.{ts,tsx}",
    "packages/daemon/test/reliability/**/*.test.ts",
    "packages/*/test/**/*-bench.test.ts",
  ],
  e2e: ["e2e/**/*.e2e.ts"],
};
/** Folders no suite takes tests from (vitest's default exclude, and build output). */
const SKIP_DIRS = new Set(["node_modules", ".git", "dist", ".test-reports", ".ci-out"]);

/** A glob (`*`, a `**` level of folders, `{a,b}`) as an anchored regular expression over a /-separated path. */
export function globRegExp(glob) {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (glob.startsWith("**/", i)) {
      re += "(?:.*/)?";
      i += 2;
    } else if (c === "*") re += "[^/]*";
    else if (c === "{") {
      const end = glob.indexOf("}", i);
      re += `(?:${glob.slice(i + 1, end).split(",").map(escape).join("|")})`;
      i = end;
    } else re += escape(c);
  }
  return new RegExp(`^${re}$`);
}
const escape = (s) => s.replace(/[.+?^$()|[\]\\]/g, "\\$&");

/** Every file under `root` (relative, /-separated) that one of `globs` matches. */
export function suiteFiles(globs, root = ROOT) {
  const patterns = globs.map(globRegExp);
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(rel);
      } else if (patterns.some((p) => p.test(rel))) out.push(rel);
    }
  };
  walk("");
  return out.sort();
}

/** Where `--begin` records the run's start. */
export function runMarkerPath(env = process.env, root = ROOT) {
  return env.COFFER_TEST_RUN ? resolvePath(env.COFFER_TEST_RUN, root) : join(root, ".test-reports/run.json");
}

/** Records that a run starts now: every report audited afterwards must come from after this. */
export function beginRun(path = runMarkerPath(), now = Date.now()) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ started_at: now, started: new Date(now).toISOString() })}\n`);
}

function resolvePath(p, root) {
  return isAbsolute(p) ? p : join(root, p);
}

/**
 * The reports to audit, by suite: the unit report always ($COFFER_TEST_REPORT or the default
 * path), the e2e report only when asked for (`--e2e <path>`), and then it is required.
 */
export function reportPaths(args = process.argv.slice(2), env = process.env, root = ROOT) {
  const { values } = parseArgs({ args, options: { unit: { type: "string" }, e2e: { type: "string" }, begin: { type: "boolean" } } });
  const unit = values.unit ?? env.COFFER_TEST_REPORT ?? ".test-reports/unit.json";
  return { unit: resolvePath(unit, root), ...(values.e2e ? { e2e: resolvePath(values.e2e, root) } : {}) };
}

/** A test's key in a flaky list: its file (relative to the repo) and full name as vitest's TestCase spells it. */
const flakyKey = (file, name) => `${file}\u0000${name}`;
/** A JSON report's test, named like TestCase.fullName ("describe > test"), as FlakyReporter lists it. */
const caseName = (t) => [...(t.ancestorTitles ?? []), t.title].join(" > ");

/**
 * Checks each report is there, from this run, and whole; returns what is wrong with them (empty
 * when nothing is) and the tests that passed only on a retry. `run` is the marker's content
 * (null when there is none).
 */
export function checkReports(reports, run, root = ROOT) {
  const problems = [];
  const flaky = [];
  if (!run) problems.push(`no run marker: this run never recorded its start (npm test does, first: node scripts/verify-acceptance.mjs --begin)`);
  for (const [suite, path] of Object.entries(reports)) {
    const where = relative(root, path) || path;
    if (!existsSync(path)) {
      problems.push(`${suite} report missing: ${where} (${suite === "unit" ? "npm test writes it" : "npm run test:e2e writes it"})`);
      continue;
    }
    let report;
    try {
      report = JSON.parse(readFileSync(path, "utf8"));
    } catch (err) {
      problems.push(`${suite} report unreadable: ${where}: ${err.message}`);
      continue;
    }
    if (run && !(report.startTime >= run.started_at)) {
      const when = Number.isFinite(report.startTime) ? new Date(report.startTime).toISOString() : "at an unknown time";
      problems.push(`${suite} report stale: ${where} is from a run that started ${when}, before this run (${new Date(run.started_at).toISOString()})`);
    }
    if (report.success !== true) problems.push(`${suite} report partial: ${where} says the run did not succeed (failed, or interrupted)`);
    const seen = new Set((report.testResults ?? []).map((f) => relative(root, f.name)));
    const absent = suiteFiles(SUITES[suite] ?? [], root).filter((f) => !seen.has(f));
    if (absent.length) {
      problems.push(
        `${suite} report partial: ${where} lacks ${absent.length} of the suite's test files (a filtered or interrupted run): ${absent.slice(0, 5).join(", ")}${absent.length > 5 ? ", …" : ""}`,
      );
    }
    flaky.push(...flakyTests(path, report, root));
  }
  return { problems, flaky };
}

/**
 * Tests that passed only on a retry: marked in the report itself (e2e/support/flaky-reporter.ts
 * sets `meta.retried`), or listed beside it in `<report>.flaky.json` — either one is enough.
 */
export function flakyTests(path, report, root = ROOT) {
  const out = new Map();
  for (const file of report.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      if (t.status === "passed" && t.meta?.retried > 0) out.set(flakyKey(relative(root, file.name), caseName(t)), { file: relative(root, file.name), name: caseName(t) });
    }
  }
  const listed = path.replace(/\.json$/, "") + ".flaky.json";
  if (existsSync(listed)) {
    for (const t of JSON.parse(readFileSync(listed, "utf8"))) out.set(flakyKey(t.file, t.name), { file: t.file, name: t.name });
  }
  return [...out.values()];
}

/** The catalogue files, one per spec, in name order. */
export function catalogueFiles(root = ROOT) {
  return readdirSync(join(root, "docs/acceptance"))
    .filter((f) => f.endsWith(".json"))
    .sort();
}

/** Passing tagged tests whose tag names a spec with no catalogue (a typo proves nothing). */
export function unknownSpecTags(reports, specs, root = ROOT) {
  const out = [];
  for (const path of reports) {
    for (const file of JSON.parse(readFileSync(path, "utf8")).testResults ?? []) {
      for (const t of file.assertionResults ?? []) {
        const m = TAG.exec(t.title);
        if (m && t.status === "passed" && !specs.includes(m[1])) out.push(`${relative(root, file.name)}: "${t.title}"`);
      }
    }
  }
  return out;
}

/**
 * One spec's scenarios against the reports. `e2eRequired`: whether browser-only scenarios must
 * be proved now (an e2e report is audited); by default, whether any report holds an e2e file.
 * `flaky`: tests that passed only on a retry — they prove nothing.
 */
export function audit(reports, root = ROOT, catalogueFile = "008-agent-chat.json", { e2eRequired, flaky = [] } = {}) {
  const flakySet = new Set(flaky.map((t) => flakyKey(t.file, t.name)));
  const catalogue = JSON.parse(readFileSync(join(root, "docs/acceptance", catalogueFile), "utf8"));
  const titles = new Set(catalogue.scenarios.map((s) => s.title));
  const passed = new Map(); // title -> Set of "file › full name"
  const failed = new Map();
  const flakyRuns = new Map();
  const orphans = [];
  let ran = 0;
  let sawE2e = false;
  for (const path of reports) {
    const report = JSON.parse(readFileSync(path, "utf8"));
    for (const file of report.testResults ?? []) {
      if (file.name?.endsWith(".e2e.ts")) sawE2e = true;
      for (const t of file.assertionResults ?? []) {
        const m = TAG.exec(t.title);
        if (!m || m[1] !== catalogue.spec) continue;
        ran += 1;
        const where = `${relative(root, file.name)}${t.ancestorTitles?.length ? ` › ${t.ancestorTitles.join(" › ")}` : ""}`;
        if (!titles.has(m[2])) {
          if (t.status === "passed") orphans.push(`${where}: "${m[2]}"`);
          continue;
        }
        const retried = t.status === "passed" && flakySet.has(flakyKey(relative(root, file.name), caseName(t)));
        if (retried) {
          const set = flakyRuns.get(m[2]) ?? new Set();
          set.add(where);
          flakyRuns.set(m[2], set);
          continue;
        }
        const into = t.status === "passed" ? passed : t.status === "failed" ? failed : null;
        if (!into) continue; // skipped / todo: ran nothing, proves nothing
        const set = into.get(m[2]) ?? new Set();
        set.add(where);
        into.set(m[2], set);
      }
    }
  }
  const rows = catalogue.scenarios.map((s) => ({
    ...s,
    tests: [...(passed.get(s.title) ?? [])],
    failed: [...(failed.get(s.title) ?? [])],
    flaky: [...(flakyRuns.get(s.title) ?? [])],
    pending: catalogue.pending?.[s.id] ?? null,
    awaitingE2e: s.e2e === true && !(e2eRequired ?? sawE2e),
  }));
  return { spec: catalogue.spec, rows, orphans, ran };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // An exit code, not process.exit(): stdout and stderr are pipes under npm and CI, and exiting
  // at once can cut off the lines that say what failed.
  process.exitCode = process.argv.includes("--begin") ? (beginRun(), 0) : main();
}

function main() {
  const reports = reportPaths();
  const markerPath = runMarkerPath();
  const run = existsSync(markerPath) ? JSON.parse(readFileSync(markerPath, "utf8")) : null;
  if (run) console.log(`run: started ${new Date(run.started_at).toISOString()} (${relative(ROOT, markerPath)})`);
  for (const [suite, path] of Object.entries(reports)) console.log(`${suite} report: ${relative(ROOT, path)}`);
  const { problems, flaky } = checkReports(reports, run);
  for (const t of flaky) console.log(`  FLAKY (passed only on its retry, proves nothing): ${t.file} › ${t.name}`);
  if (problems.length) {
    for (const p of problems) console.error(`  ${p}`);
    console.error(`\nverify:acceptance FAILED: the reports cannot prove anything (${problems.length} problem(s) above)`);
    return 1;
  }
  const paths = Object.values(reports);
  let failedSpecs = 0;
  const specs = [];
  for (const file of catalogueFiles()) {
    const result = audit(paths, ROOT, file, { e2eRequired: "e2e" in reports, flaky });
    specs.push(result.spec);
    if (!printSpec(result)) failedSpecs += 1;
  }
  const unknown = unknownSpecTags(paths, specs);
  for (const u of unknown) console.log(`  ORPHAN: ${u} names no spec in docs/acceptance/`);
  if (failedSpecs || unknown.length) {
    console.error(`\nverify:acceptance FAILED: ${failedSpecs} spec(s) not covered, ${unknown.length} tag(s) naming no spec`);
    return 1;
  }
  return 0;
}

/** Prints one spec's table; false when a scenario in force is uncovered or a tag is an orphan. */
function printSpec({ spec, rows, orphans, ran }) {
  const uncovered = rows.filter((r) => !r.tests.length && !r.pending && !r.awaitingE2e);
  const pending = rows.filter((r) => !r.tests.length && r.pending);
  const awaiting = rows.filter((r) => !r.tests.length && !r.pending && r.awaitingE2e);
  console.log(`\nacceptance scenarios of ${spec} (${ran} tagged test results read):`);
  for (const r of rows) {
    const mark = r.tests.length ? `passed×${r.tests.length}` : r.pending ? "PENDING " : r.awaitingE2e ? "E2E-ONLY" : r.flaky.length ? "FLAKY   " : "MISSING ";
    console.log(`  ${mark.padEnd(9)} ${r.title}${r.tests.length ? `  (${r.tests.join("; ")})` : r.pending ? `  — ${r.pending}` : ""}`);
    for (const f of r.failed) console.log(`            FAILED in ${f}`);
    for (const f of r.flaky) console.log(`            FLAKY in ${f} (passed only on its retry: not proof)`);
  }
  if (awaiting.length) {
    console.log(`\n${awaiting.length} browser-only scenario(s) wait for the e2e report (npm run test:e2e): ${awaiting.map((r) => r.id).join(", ")}`);
  }
  if (pending.length) {
    console.log(`\n!!! ${pending.length} scenario(s) PENDING (not built yet): ${pending.map((r) => r.id).join(", ")}`);
  }
  for (const o of orphans) console.log(`  ORPHAN: ${o} is not a scenario of ${spec}`);
  if (uncovered.length || orphans.length) {
    console.error(`verify:acceptance ${spec} FAILED: ${uncovered.length} without a passing test (${uncovered.map((r) => r.id).join(", ")}), ${orphans.length} orphan`);
    return false;
  }
  console.log(
    `verify:acceptance ${spec} ok: ${rows.filter((r) => r.tests.length).length}/${rows.length} proved by a passing test in this run, ${pending.length} pending${awaiting.length ? `, ${awaiting.length} awaiting the e2e report` : ""}`,
  );
  return true;
}
