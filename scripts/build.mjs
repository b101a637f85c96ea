#!/usr/bin/env node
// `npm run build`, `npm install` (prepare) and `npm start` build through here, and build only
// what changed: each output carries a stamp, the hash of every input that shapes it (sources,
// configs, the lockfile). A matching stamp skips the step; `--force` ignores stamps.
// tsc -b is incremental by itself, but loading TypeScript to learn that nothing changed costs
// about a second, and the web app's vite build ~10–30 s: the stamps make a built tree start at once.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SKIP = new Set(["node_modules", "dist", ".tsbuildinfo"]);

/** Every file under `dir` (sorted, relative to the root), minus outputs and dependencies. */
export function files(dir, root = ROOT) {
  const out = [];
  const walk = (d) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (SKIP.has(e.name) || e.name.endsWith(".tsbuildinfo")) continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(relative(root, p));
    }
  };
  walk(join(root, dir));
  return out.sort();
}

function hash(paths, root) {
  const h = createHash("sha256");
  for (const p of paths) {
    h.update(`${p}\0`);
    h.update(existsSync(join(root, p)) ? readFileSync(join(root, p)) : "(missing)");
    h.update("\0");
  }
  return h.digest("hex");
}

const shared = ["package.json", "package-lock.json", "tsconfig.base.json"];
// Tests are no input: no tsconfig of a build includes them.
const pkg = (name, root) => [
  `packages/${name}/package.json`,
  ...files(`packages/${name}`, root).filter((p) => !p.startsWith(`packages/${name}/test/`) && !/\.test\.tsx?$/.test(p)),
];

/**
 * The steps, in order. The web app imports the protocol package's sources, so they are its
 * inputs too. `outputs` must exist for a stamp to count (a deleted dist rebuilds). Stamps live
 * outside dist (the daemon serves packages/web/dist as it is).
 */
export const STEPS = [
  {
    name: "protocol, daemon, cli",
    inputs: (root) => [...shared, ...pkg("protocol", root), ...pkg("daemon", root), ...pkg("cli", root)],
    outputs: ["packages/protocol/dist/index.js", "packages/daemon/dist/main.js", "packages/cli/dist/main.js"],
    stamp: "node_modules/.cache/coffer-build/packages.stamp",
    run: [process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-b", "packages/protocol", "packages/daemon", "packages/cli"]],
  },
  {
    name: "web app",
    inputs: (root) => [...shared, ...pkg("protocol", root).filter((p) => p.includes("/src/")), ...pkg("web", root)],
    outputs: ["packages/web/dist/index.html"],
    stamp: "node_modules/.cache/coffer-build/web.stamp",
    run: ["npm", ["run", "build", "-w", "@coffer/web"]],
  },
];

/**
 * Builds what is out of date; returns the names of the steps it ran. `quiet`: a step's own
 * output is shown only when it fails (npm install and npm start print one line per step
 * instead of vite's table of chunks). A failed step throws; its stamp is left as it was.
 */
export function ensureBuilt({ force = false, quiet = false, root = ROOT, steps = STEPS, log = (line) => process.stderr.write(line) } = {}) {
  const ran = [];
  for (const step of steps) {
    const digest = hash(step.inputs(root), root);
    const stampFile = join(root, step.stamp);
    const fresh =
      !force &&
      step.outputs.every((o) => existsSync(join(root, o))) &&
      existsSync(stampFile) &&
      readFileSync(stampFile, "utf8").trim() === digest;
    if (fresh) continue;
    if (quiet) log(`coffer: building the ${step.name}…\n`);
    const [cmd, args] = step.run;
    // Always a production build: a build started from a test run (vitest sets NODE_ENV=test) or a
    // shell with NODE_ENV=development would otherwise ship React's development bundle (+250 kB).
    const env = { ...process.env, NODE_ENV: "production" };
    const r = spawnSync(cmd, args, { cwd: root, env, stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit", encoding: "utf8" });
    if (r.status !== 0) {
      if (quiet) log(`${r.stdout ?? ""}${r.stderr ?? ""}`);
      throw new Error(`building the ${step.name} failed${r.error ? `: ${r.error.message}` : ""}`);
    }
    mkdirSync(dirname(stampFile), { recursive: true });
    writeFileSync(stampFile, `${digest}\n`);
    ran.push(step.name);
  }
  return ran;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    ensureBuilt({ force: process.argv.includes("--force"), quiet: process.argv.includes("--quiet") });
  } catch (err) {
    process.stderr.write(`coffer: ${err.message}\n`);
    process.exit(1);
  }
}
