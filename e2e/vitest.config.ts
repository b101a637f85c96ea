import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import FlakyReporter from "./support/flaky-reporter.js";

const report = process.env.COFFER_TEST_REPORT ?? ".test-reports/e2e.json";

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
    // In CI a browser test that fails is run once more (a real Chromium, a real daemon and two
    // cores shared with them): a test that fails twice fails the run, and one that passed only
    // on its retry is named by FlakyReporter and in CI's summary, never hidden.
    retry: process.env.CI ? 1 : 0,
    // Always a JSON report: verify:acceptance counts the tagged tests that ran and passed from
    // it (a git-ignored path by default), and CI's "N passed, N failed" line reads CI's copy.
    reporters: ["default", ["json", { outputFile: report }], new FlakyReporter(report)],
  },
});
