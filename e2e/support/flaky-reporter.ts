import { writeFileSync } from "node:fs";
import { relative } from "node:path";
import type { Reporter, TestCase } from "vitest/node";

/** One browser test that failed, then passed on its retry. */
export interface FlakyTest {
  readonly file: string;
  readonly name: string;
  /** The first line of what failed the first time. */
  readonly firstError: string;
}

/**
 * Names every test that passed only on its retry (CI retries a browser test once:
 * docs/decisions.md, "CI"), so a retry never hides a flake: the list is printed at the end of
 * the run and written beside the JSON report (`<report>.flaky.json`) for CI's summary.
 */
export default class FlakyReporter implements Reporter {
  private readonly flaky: FlakyTest[] = [];

  constructor(private readonly outputFile: string) {}

  onTestCaseResult(test: TestCase): void {
    const diagnostic = test.diagnostic();
    if (!diagnostic || diagnostic.retryCount === 0 || test.result().state !== "passed") return;
    // Marked in the JSON report itself too (this runs before the json reporter writes it at the
    // end of the run): verify:acceptance counts no test that passed only on a retry as proof.
    (test.meta() as { retried?: number }).retried = diagnostic.retryCount;
    const error = test.result().errors?.[0];
    this.flaky.push({
      file: relative(process.cwd(), test.module.moduleId),
      name: test.fullName,
      firstError: String(error?.message ?? "").split("\n")[0]!.slice(0, 300),
    });
  }

  onTestRunEnd(): void {
    writeFileSync(this.outputFile.replace(/\.json$/, "") + ".flaky.json", JSON.stringify(this.flaky, null, 2));
    for (const t of this.flaky) console.log(`FLAKY (passed on its retry): ${t.file} › ${t.name}: ${t.firstError}`);
  }
}
