import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { LoginHandoffFiles } from "../../application/auth/handoff-ports.js";
import { ensurePrivateDir, removePrivateFile, writePrivateFileAtomic } from "./private-files.js";

/** The page a browser is handed: forwards at once to the login URL (the code in its fragment). */
function forwardingPage(target: string): string {
  const quoted = target.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return `<!doctype html>
<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${quoted}">
<title>Opening Coffer…</title></head>
<body><p><a href="${quoted}">Open Coffer</a> (this link works once, for 60 seconds).</p></body></html>
`;
}

/**
 * Hand-off files in `<data dir>/signin/` (0700), one 0600 HTML file per login code, named by a
 * hash of the code (so removing it needs no lookup and the name reveals nothing). A browser is
 * started with only this path on its command line, where every local user can read it
 * (docs/decisions.md, "Hardening II"); the same as Jupyter's redirect file.
 */
export function loginHandoffFiles(home: string, daemonUrl: () => string): LoginHandoffFiles & { sweep(): void } {
  const dir = join(home, "signin");
  const pathOf = (code: string) => join(dir, `${createHash("sha256").update(code).digest("hex").slice(0, 24)}.html`);
  return {
    write(code) {
      ensurePrivateDir(dir);
      const path = pathOf(code);
      writePrivateFileAtomic(path, forwardingPage(`${daemonUrl()}/#login=${code}`));
      return path;
    },
    remove: (code) => removePrivateFile(pathOf(code)),
    /** Files a killed daemon left behind hold dead codes: gone at start. */
    sweep() {
      ensurePrivateDir(dir);
      for (const name of readdirSync(dir)) if (name.endsWith(".html")) removePrivateFile(join(dir, name));
    },
  };
}
