#!/usr/bin/env node
// `npm run coffer -- <args>`: the `coffer` CLI from a clone, where no `coffer` is on PATH. Its
// hints then name `npm run coffer -- …`, which works where they are printed (issue 22).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ensureBuilt } from "./build.mjs";

const cli = fileURLToPath(new URL("../packages/cli/dist/main.js", import.meta.url));
// `npm install` builds it; only a tree never built is built here (no rebuild check per command:
// `npm start` keeps the build current).
if (!existsSync(cli)) {
  try {
    ensureBuilt({ quiet: true });
  } catch (err) {
    process.stderr.write(`coffer: ${err.message}\n`);
    process.exit(1);
  }
}
process.env.COFFER_CLI_COMMAND ??= "npm run coffer --";
process.argv = [process.argv[0], cli, ...process.argv.slice(2)];
await import(cli);
