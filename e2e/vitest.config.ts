import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Browser e2e: a real daemon per spec file (child process, scripted agent) serving the built
// web app, driven in Debian Chromium through playwright-core. Build first: npm run build.
export default defineConfig({
  resolve: {
    alias: {
      "@coffer/protocol": fileURLToPath(new URL("../packages/protocol/src/index.ts", import.meta.url)),
    },
  },
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: ["e2e/**/*.e2e.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two cores shared with the daemon and Chromium: one spec file at a time keeps timings honest.
    fileParallelism: false,
    // Always a JSON report: verify:acceptance counts the tagged tests that ran and passed from
    // it (a git-ignored path by default), and CI's "N passed, N failed" line reads CI's copy.
    reporters: ["default", ["json", { outputFile: process.env.COFFER_TEST_REPORT ?? ".test-reports/e2e.json" }]],
  },
});
