#!/usr/bin/env node
// Lists the spec's acceptance scenarios and the tests that cover them; fails when a
// scenario in force has no acceptance("<spec>", "<title>", …) test, or a test names a
// scenario the spec does not have. Scenarios not built yet sit in an explicit pending set.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SKIP = new Set(["node_modules", "dist", ".git"]);
// Each argument ends at its own closing quote, so a title may hold the other quotes ("agent's").
const CALL = /acceptance\(\s*(["'`])(.+?)\1\s*,\s*(["'`])(.+?)\3/g;

function* testFiles(dir) {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) yield* testFiles(full);
    else if (/\.(test|spec|e2e)\.(ts|tsx|mjs|js)$/.test(name)) yield full;
  }
}

export function audit(root = ROOT) {
  const catalogue = JSON.parse(readFileSync(join(root, "docs/acceptance/008-agent-chat.json"), "utf8"));
  const covered = new Map();
  const orphans = [];
  const titles = new Set(catalogue.scenarios.map((s) => s.title));
  for (const file of testFiles(root)) {
    for (const [, , spec, , title] of readFileSync(file, "utf8").matchAll(CALL)) {
      if (spec !== catalogue.spec) continue;
      if (!titles.has(title)) orphans.push(`${relative(root, file)}: "${title}"`);
      const files = covered.get(title) ?? new Set();
      files.add(relative(root, file));
      covered.set(title, files);
    }
  }
  const rows = catalogue.scenarios.map((s) => ({
    ...s,
    files: [...(covered.get(s.title) ?? [])],
    pending: catalogue.pending[s.id] ?? null,
  }));
  return { spec: catalogue.spec, rows, orphans };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { spec, rows, orphans } = audit();
  const uncovered = rows.filter((r) => !r.files.length && !r.pending);
  const pending = rows.filter((r) => !r.files.length && r.pending);
  console.log(`acceptance scenarios of ${spec}:`);
  for (const r of rows) {
    const mark = r.files.length ? "covered " : r.pending ? "PENDING " : "MISSING ";
    console.log(`  ${mark} ${r.title}${r.files.length ? `  (${r.files.join(", ")})` : r.pending ? `  — ${r.pending}` : ""}`);
  }
  if (pending.length) {
    console.log(`\n!!! ${pending.length} scenario(s) PENDING (not built yet): ${pending.map((r) => r.id).join(", ")}`);
  }
  for (const o of orphans) console.log(`  ORPHAN: ${o} is not a scenario of ${spec}`);
  if (uncovered.length || orphans.length) {
    console.error(`\nverify:acceptance FAILED: ${uncovered.length} uncovered, ${orphans.length} orphan`);
    process.exit(1);
  }
  console.log(`\nverify:acceptance ok: ${rows.length - pending.length}/${rows.length} covered, ${pending.length} pending`);
}
