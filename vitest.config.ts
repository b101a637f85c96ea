import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** Files that kill daemons, fuzz or measure: run after the rest, one at a time. */
const ALONE = ["packages/daemon/test/reliability/**/*.test.ts", "packages/*/test/**/*-bench.test.ts"];

export default defineConfig({
  resolve: {
    alias: {
      "@coffer/protocol": fileURLToPath(new URL("./packages/protocol/src/index.ts", import.meta.url)),
    },
  },
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    // Always a JSON report: verify:acceptance counts the tagged tests that ran and passed from
    // it (a git-ignored path by default), and CI's "N passed, N failed" line reads CI's copy.
    reporters: ["default", ["json", { outputFile: process.env.COFFER_TEST_REPORT ?? ".test-reports/unit.json" }]],
    // Two groups, one after the other (docs/decisions.md, "The unit suite on both cores"): first
    // every test file two at a time (the machine has 2 cores; vitest's default of cores − 1 ran
    // them one by one, ~13 min), then the files that kill daemons, fuzz or measure, alone, so
    // nothing else shares the machine with them.
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          include: ["packages/*/src/**/*.test.ts", "packages/*/test/**/*.test.ts", "scripts/**/*.test.mjs"],
          exclude: ["packages/web/**", "**/node_modules/**", ...ALONE],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        // The web app's component tests: React in happy-dom.
        extends: true,
        plugins: [react()],
        test: {
          name: "web",
          include: ["packages/web/src/**/*.test.{ts,tsx}", "packages/web/test/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
          setupFiles: ["packages/web/test/setup.ts"],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "alone",
          include: ALONE,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
