#!/usr/bin/env node
// Fails when packages/daemon/src breaks a layering rule: dependencies point inward
// (http → application → domain; infrastructure implements application's ports and sees
// application only through its ports files; only the root files wire everything), and each
// SDK stays in its one infrastructure folder. Also fails on any import cycle (type-only
// imports included) inside the src of any workspace package, and on any two-way tie or longer
// circle between the folders of the daemon's application layer.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
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

/** Application provides its ports in `ports.ts` or `<name>-ports.ts` files. */
function isPortsFile(relPath) {
  return /(^|-)ports\.(js|ts)$/.test(relPath.split(sep).pop());
}

/** The source file a relative import names (`./x.js` → `x.ts`/`x.tsx`, a folder → its index). */
function resolveImport(fromFile, spec) {
  const base = resolve(dirname(fromFile), spec);
  const stem = base.replace(/\.(js|jsx|ts|tsx|mjs)$/, "");
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Each non-test source file under `srcRoot` → the source files its relative imports name. */
function importGraph(srcRoot) {
  const graph = new Map();
  for (const file of sourceFiles(srcRoot)) {
    const targets = new Set();
    for (const m of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      if (!spec.startsWith(".")) continue;
      const target = resolveImport(file, spec);
      if (target && !/\.test\.tsx?$/.test(target)) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/**
 * The strongly connected components of a graph (node → nodes it points at) that hold a circle:
 * two or more nodes, or one that points at itself. Tarjan's algorithm, iteratively (deep trees
 * must not overflow the stack).
 */
function circularComponents(graph) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work = [[root, 0]];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const frame = work[work.length - 1];
      const [node, i] = frame;
      const edges = graph.get(node) ?? [];
      if (i < edges.length) {
        frame[1] += 1;
        const to = edges[i];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push([to, 0]);
        } else if (onStack.has(to)) {
          low.set(node, Math.min(low.get(node), index.get(to)));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        const selfLoop = component.length === 1 && (graph.get(node) ?? []).includes(node);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }
  return components;
}

/**
 * Import cycles among a `src` folder's non-test files, type-only imports included (a type
 * circle still couples two files both ways). Each cycle is reported once, as a path.
 */
export function findImportCycles(srcRoot) {
  const graph = importGraph(srcRoot);
  return circularComponents(graph).map((component) => {
    const members = new Set(component);
    const start = component.map((f) => relative(srcRoot, f)).sort()[0];
    // Walk one concrete circle through the component for a readable message.
    const path = [join(srcRoot, start)];
    const seen = new Set(path);
    for (;;) {
      const here = path[path.length - 1];
      const nextFile = (graph.get(here) ?? []).find((t) => members.has(t) && (!seen.has(t) || t === path[0]));
      if (!nextFile || nextFile === path[0]) break;
      path.push(nextFile);
      seen.add(nextFile);
    }
    return `import cycle: ${[...path, path[0]].map((f) => relative(srcRoot, f)).join(" → ")}` + (component.length > path.length ? ` (${component.length} files in the circle)` : "");
  });
}

/** An application file's folder (`turns`), or the file itself for one at the top (`audit-log.ts`). */
function folderOf(relToApplication) {
  return relToApplication.split(sep)[0];
}

/** One simple circle of length three or more through `start` inside `members`, or null. */
function longCircle(start, members, edges) {
  const path = [start];
  const walk = () => {
    for (const to of [...(edges.get(path[path.length - 1]) ?? [])].sort()) {
      if (!members.has(to)) continue;
      if (to === start && path.length >= 3) return true;
      if (path.includes(to)) continue;
      path.push(to);
      if (walk()) return true;
      path.pop();
    }
    return false;
  };
  return walk() ? path : null;
}

/**
 * Ties between the folders of the daemon's `application` (a top-level file counts as its own
 * folder), type-only imports included: a folder may lean on another, never both ways and never
 * round a circle, so each fact has one owner and the others point at it. Every two-way pair is
 * reported, and each longer circle once, as one path through it, with the files behind each step.
 */
export function findFolderTies(srcRoot) {
  const appRoot = join(srcRoot, "application");
  if (!existsSync(appRoot)) return [];
  const graph = importGraph(appRoot);
  /** folder → folders it imports; `from\0to` → the first file pair (sorted) behind that step. */
  const edges = new Map();
  const because = new Map();
  for (const [file, targets] of graph) {
    const from = folderOf(relative(appRoot, file));
    if (!edges.has(from)) edges.set(from, new Set());
    for (const target of targets) {
      const rel = relative(appRoot, target);
      if (rel.startsWith("..")) continue;
      const to = folderOf(rel);
      if (to === from) continue;
      edges.get(from).add(to);
      const key = `${from}\0${to}`;
      const pair = [relative(appRoot, file), rel];
      const known = because.get(key);
      if (!known || pair.join("\0") < known.join("\0")) because.set(key, pair);
    }
  }
  const name = (folder) => `application/${folder}`;
  const step = (from, to) => {
    const [a, b] = because.get(`${from}\0${to}`);
    return `${a} imports ${b}`;
  };
  const violations = [];
  const graphOfFolders = new Map([...edges].map(([k, v]) => [k, [...v]]));
  for (const component of circularComponents(graphOfFolders)) {
    const members = new Set(component);
    const sorted = [...component].sort();
    for (const a of sorted) {
      for (const b of sorted) {
        if (a < b && edges.get(a)?.has(b) && edges.get(b)?.has(a)) {
          violations.push(`two-way tie: ${name(a)} ↔ ${name(b)} (${step(a, b)}; ${step(b, a)})`);
        }
      }
    }
    if (component.length < 3) continue;
    const circle = longCircle(sorted[0], members, edges) ?? sorted.map((s) => longCircle(s, members, edges)).find(Boolean);
    if (!circle) continue;
    const steps = circle.map((from, i) => step(from, circle[(i + 1) % circle.length]));
    violations.push(`folder cycle: ${[...circle, circle[0]].map(name).join(" → ")} (${steps.join("; ")})`);
  }
  return violations.sort();
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
        } else if (layer === "infrastructure" && targetLayer === "application" && !isPortsFile(target)) {
          violations.push(`${rel}: infrastructure may see application only through ports files, not ${spec}`);
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
  return violations.concat(findImportCycles(srcRoot), findFolderTies(srcRoot));
}

/** The src folders whose import cycles are checked besides the daemon's. */
export const OTHER_SOURCE_ROOTS = ["protocol", "cli", "web"];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const packages = resolve(dirname(fileURLToPath(import.meta.url)), "..", "packages");
  const violations = checkDependencies(join(packages, "daemon", "src"));
  for (const name of OTHER_SOURCE_ROOTS) {
    violations.push(...findImportCycles(join(packages, name, "src")).map((v) => `${name}/src: ${v}`));
  }
  if (violations.length) {
    console.error(`dependency check: ${violations.length} violation(s)\n  ${violations.join("\n  ")}`);
    process.exit(1);
  }
  console.log("dependency check: ok (http → application → domain; infrastructure sees application ports only; SDKs confined; no import cycles; application folders tie one way)");
}
