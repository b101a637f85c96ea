#!/usr/bin/env node
// Lists the spec's acceptance scenarios and the tests that PROVED them in the last run: it
// reads the runner's JSON reports (vitest's json reporter), not the source, so a tagged test
// that was skipped, filtered out or failed covers nothing. A tagged test is one whose title is
// "[<spec>] <scenario title>" (test/support/acceptance.ts puts the tag in the name). Fails when
// a scenario in force has no passing tagged test, or a passing test names a scenario the spec
// does not have. Scenarios not built yet sit in an explicit pending set. Every catalogue in
// docs/acceptance/ (one per spec: 008-agent-chat, 013-telegram-channel, …) is audited.
// A scenario marked `"e2e": true` can only be proved in the browser: it is required once an
// e2e report is read (CI audits again after the e2e suite), and listed as awaiting it before.
//
// Reports: the paths given as arguments; else $COFFER_TEST_REPORT; else the ones `npm test`
// and `npm run test:e2e` always write (.test-reports/unit.json, and e2e.json when present).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const DEFAULT_REPORTS = [".test-reports/unit.json", ".test-reports/e2e.json"];
const TAG = /^\[([^\]]+)\] (.+)$/;

/** The reports to read: explicit ones must exist; the defaults are used when present. */
export function reportPaths(args = process.argv.slice(2), env = process.env, root = ROOT) {
  if (args.length) return args;
  if (env.COFFER_TEST_REPORT) return [env.COFFER_TEST_REPORT];
  return DEFAULT_REPORTS.map((p) => join(root, p)).filter((p) => existsSync(p));
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

export function audit(reports, root = ROOT, catalogueFile = "008-agent-chat.json") {
  const catalogue = JSON.parse(readFileSync(join(root, "docs/acceptance", catalogueFile), "utf8"));
  const titles = new Set(catalogue.scenarios.map((s) => s.title));
  const passed = new Map(); // title -> Set of "file › full name"
  const failed = new Map();
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
    pending: catalogue.pending?.[s.id] ?? null,
    awaitingE2e: s.e2e === true && !sawE2e,
  }));
  return { spec: catalogue.spec, rows, orphans, ran };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const reports = reportPaths();
  if (!reports.length) {
    console.error("verify:acceptance FAILED: no test report (run `npm test`, which writes .test-reports/unit.json)");
    process.exit(1);
  }
  for (const r of reports) {
    const age = Math.round((Date.now() - statSync(r).mtimeMs) / 60_000);
    console.log(`report: ${relative(ROOT, r)} (written ${age} min ago)`);
  }
  let failedSpecs = 0;
  const specs = [];
  for (const file of catalogueFiles()) {
    const result = audit(reports, ROOT, file);
    specs.push(result.spec);
    if (!printSpec(result)) failedSpecs += 1;
  }
  const unknown = unknownSpecTags(reports, specs);
  for (const u of unknown) console.log(`  ORPHAN: ${u} names no spec in docs/acceptance/`);
  if (failedSpecs || unknown.length) {
    console.error(`\nverify:acceptance FAILED: ${failedSpecs} spec(s) not covered, ${unknown.length} tag(s) naming no spec`);
    process.exit(1);
  }
}

/** Prints one spec's table; false when a scenario in force is uncovered or a tag is an orphan. */
function printSpec({ spec, rows, orphans, ran }) {
  const uncovered = rows.filter((r) => !r.tests.length && !r.pending && !r.awaitingE2e);
  const pending = rows.filter((r) => !r.tests.length && r.pending);
  const awaiting = rows.filter((r) => !r.tests.length && !r.pending && r.awaitingE2e);
  console.log(`\nacceptance scenarios of ${spec} (${ran} tagged test results read):`);
  for (const r of rows) {
    const mark = r.tests.length ? `passed×${r.tests.length}` : r.pending ? "PENDING " : r.awaitingE2e ? "E2E-ONLY" : "MISSING ";
    console.log(`  ${mark.padEnd(9)} ${r.title}${r.tests.length ? `  (${r.tests.join("; ")})` : r.pending ? `  — ${r.pending}` : ""}`);
    for (const f of r.failed) console.log(`            FAILED in ${f}`);
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
