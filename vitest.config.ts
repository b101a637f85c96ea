import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

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
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          include: ["packages/*/src/**/*.test.ts", "packages/*/test/**/*.test.ts", "scripts/**/*.test.mjs"],
          exclude: ["packages/web/**", "**/node_modules/**"],
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
        },
      },
    ],
  },
});
