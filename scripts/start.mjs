#!/usr/bin/env node
// `npm start`: builds what changed, then the daemon in the foreground, as `coffer start --open` would run it. npm puts this
// project's node_modules/.bin first on PATH for scripts; the daemon must see the owner's own
// PATH, or the test-only `codex` installed here would shadow the owner's Codex.
import { delimiter, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuilt } from "./build.mjs";

// Only what changed since the last build is built (nothing, on a built tree: the URL follows at once).
try {
  ensureBuilt({ quiet: true });
} catch (err) {
  process.stderr.write(`coffer: ${err.message}\n`);
  process.exit(1);
}

const projectBins = `${sep}node_modules${sep}.bin`;
process.env.PATH = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((dir) => !dir.endsWith(projectBins))
  .join(delimiter);
// Hints name the commands that work from this clone (`npm run coffer -- open`), and the first start
// opens the page signed in unless `--no-open` (given after, it wins) or COFFER_NO_OPEN=1.
process.env.COFFER_CLI_COMMAND ??= "npm run coffer --";
const cli = fileURLToPath(new URL("../packages/cli/dist/main.js", import.meta.url));
process.argv = [process.argv[0], cli, "start", "--open", ...process.argv.slice(2)];
await import(cli);
