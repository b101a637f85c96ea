#!/usr/bin/env node
// Fails when packages/ holds more substantive copy-paste pairs than MAX_SUBSTANTIVE_PAIRS.
// jscpd (pinned, config in .jscpd.json) finds the pairs of 6+ similar lines; this script keeps
// the substantive ones (docs/decisions.md, "The copy-paste check"):
//   - the daemon's, the CLI's and the page's own code: pairs that match once names are set aside
//     (Type-2 clones: the row → object → wire mappings differed only in names);
//   - tests, fakes, test support and the protocol's schemas: exact copies only (two tests that
//     arrange, act and assert alike are read one at a time, and two wire shapes' declarations
//     differ in their names by design);
//   - a pair inside one file whose two ranges overlap is a run of similar lines, not a copy;
//   - lines that only declare are not counted: imports, zod fields, an interface's fields and
//     method signatures, a route table's `.route(ROUTES.x, …)` lines and an API client's
//     one-line calls (each names another route), a test's hooks, blank, comment and
//     bracket-only lines. A pair needs 6 other lines on each side.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The line held: lower it as copies go, never raise it to let one in. */
export const MAX_SUBSTANTIVE_PAIRS = 4;
/** Lines a pair needs on each side, besides those set aside below. */
export const MIN_LINES = 6;

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

const NOT_COUNTED = [
  /^\s*$/, // blank
  /^\s*(\/\/|\/\*|\*)/, // comment
  /^\s*import\b/, // import line
  /^\s*(type\s+)?[\w$]+,?\s*$/, // a name inside a multi-line import/export list
  /^\s*}\s*from\s*["']/, // the end of a multi-line import
  /^\s*["']?[\w$]+["']?\??:\s*z\./, // a zod field: a wire shape's field list
  /^[\s()[\]{};,]*$/, // brackets only: the end of a block
  /^\s*(beforeAll|afterAll|beforeEach|afterEach)\(/, // a test's hooks
  /^\s*let [\w$]+: [\w$<>]+;$/, // the variable a test's hooks fill
  /^\s*(readonly\s+)?[\w$]+\??:\s*[^=()]*;$/, // an interface's field
  /^\s*(readonly\s+)?[\w$]+\??(<[^>]*>)?\(.*\):\s*[^{=]+;$/, // an interface's method signature
  /^\s*\.route\(ROUTES\.[\w$]+,/, // a route table's line
  /^\s*[\w$]+ = \(.*\) =>\s*this\.api\.call\(/, // an API client's one-line call
];

/** Tests, fakes, test support and the protocol's schemas are held to exact copies. */
export const exactOnly = (name) => /(^|\/)test\//.test(name) || /\.test\.[jt]sx?$/.test(name) || /^protocol\/src\//.test(name);

/** The lines of one side of a pair that count. */
export function countedLines(lines) {
  return lines.filter((line) => !NOT_COUNTED.some((re) => re.test(line)));
}

/**
 * The substantive pairs of a jscpd JSON report. `readLines(name)` gives a file's lines (jscpd's
 * `name` is relative to the scanned folder).
 */
export function substantivePairs(renamed, exact, readLines) {
  const side = (f) => readLines(f.name).slice(f.start - 1, f.end);
  const held = (d) => exactOnly(d.firstFile.name) || exactOnly(d.secondFile.name);
  const pairs = [...renamed.duplicates.filter((d) => !held(d)), ...exact.duplicates.filter(held)];
  return pairs.filter((d) => {
    const a = d.firstFile;
    const b = d.secondFile;
    if (a.name === b.name && a.start <= b.end && b.start <= a.end) return false;
    return countedLines(side(a)).length >= MIN_LINES && countedLines(side(b)).length >= MIN_LINES;
  });
}

/** Runs the pinned jscpd over `dir` with the repo's config (and `extra` flags) and returns its JSON report. */
export function scan(dir, extra = []) {
  const out = mkdtempSync(join(tmpdir(), "copies-"));
  try {
    const bin = createRequire(import.meta.url).resolve("jscpd/run-jscpd.js");
    const run = spawnSync(process.execPath, [bin, "--config", join(ROOT, ".jscpd.json"), "--reporters", "json", "--output", out, ...extra, dir], {
      encoding: "utf8",
    });
    if (run.status !== 0) throw new Error(`jscpd failed (${run.status}): ${run.stderr || run.stdout}`);
    return JSON.parse(readFileSync(join(out, "jscpd-report.json"), "utf8"));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export function describe(d) {
  const at = (f) => `${f.name}:${f.start}-${f.end}`;
  return `${at(d.firstFile)}  ~  ${at(d.secondFile)}  (${d.lines} lines)`;
}

/** The substantive pairs under `dir` (a folder like packages/), each described, and whether they pass `max`. */
export function checkCopies(dir, max = MAX_SUBSTANTIVE_PAIRS) {
  const files = new Map();
  const readLines = (name) => {
    if (!files.has(name)) files.set(name, readFileSync(join(dir, name), "utf8").split("\n"));
    return files.get(name);
  };
  const pairs = substantivePairs(scan(dir, ["--ignore-identifiers"]), scan(dir), readLines).map(describe);
  return { pairs, ok: pairs.length <= max };
}

function main() {
  const { pairs, ok } = checkCopies(join(ROOT, "packages"));
  for (const line of pairs) console.log(line);
  if (!ok) {
    console.error(`check:copies: ${pairs.length} substantive copy-paste pairs in packages/, more than the ${MAX_SUBSTANTIVE_PAIRS} allowed (scripts/check-copies.mjs): fold the new copy into one place.`);
    process.exit(1);
  }
  console.log(`check:copies: ${pairs.length} substantive copy-paste pairs (at most ${MAX_SUBSTANTIVE_PAIRS}).`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
