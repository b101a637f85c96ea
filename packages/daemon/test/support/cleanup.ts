import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

/**
 * Undo steps a test file's tests register (daemons to stop, folders to remove), run after each
 * test, last first; `tempDir` makes a folder that goes with them.
 */
export function cleanupAfterEach(): { readonly cleanup: (() => unknown)[]; tempDir(prefix: string): string } {
  const cleanup: (() => unknown)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });
  return {
    cleanup,
    tempDir(prefix) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
      return dir;
    },
  };
}
