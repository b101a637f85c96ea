#!/usr/bin/env node
// Fails when packages/daemon/src breaks a layering rule: dependencies point inward
// (http → application → domain; infrastructure implements application's ports; only the
// root files wire everything), and each SDK stays in its one infrastructure folder.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { CONFINED, LAYERS } from "./dependency-rules.mjs";

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) yield* sourceFiles(full);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) yield full;
  }
}

function layerOf(relPath) {
  const first = relPath.split(sep)[0];
  return first in LAYERS && first !== "root" && relPath.includes(sep) ? first : "root";
}

/** Returns a list of violations (empty = clean) for a daemon `src` folder. */
export function checkDependencies(srcRoot) {
  const violations = [];
  for (const file of sourceFiles(srcRoot)) {
    const rel = relative(srcRoot, file);
    const layer = layerOf(rel);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      if (spec.startsWith(".")) {
        const target = relative(srcRoot, resolve(dirname(file), spec));
        if (target.startsWith("..")) {
          violations.push(`${rel}: imports ${spec}, outside the daemon's src`);
          continue;
        }
        const targetLayer = layerOf(target);
        if (targetLayer === layer) {
          if (layer === "infrastructure") {
            const [, from] = rel.split(sep);
            const [, to] = target.split(sep);
            if (from !== to && to !== "system") violations.push(`${rel}: infrastructure/${from} must not reach into infrastructure/${to}`);
          }
          continue;
        }
        if (!LAYERS[layer].may.includes(targetLayer)) {
          violations.push(`${rel}: ${layer} must not import ${targetLayer} (${spec})`);
        }
        continue;
      }
      const confined = CONFINED.find((c) => c.module.test(spec));
      if (confined) {
        const homes = Array.isArray(confined.home) ? confined.home : [confined.home];
        if (!homes.some((h) => rel.startsWith(h.split("/").join(sep) + sep))) {
          violations.push(`${rel}: ${spec} may only be used in ${homes.join(" or ")}`);
        }
        continue;
      }
      const allowed = LAYERS[layer].external;
      if (allowed !== "any" && !allowed.some((re) => re.test(spec))) {
        violations.push(`${rel}: ${layer} must not depend on "${spec}"`);
      }
    }
  }
  return violations;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "packages", "daemon", "src");
  const violations = checkDependencies(root);
  if (violations.length) {
    console.error(`dependency check: ${violations.length} violation(s)\n  ${violations.join("\n  ")}`);
    process.exit(1);
  }
  console.log("dependency check: ok (http → application → domain; SDKs confined)");
}
