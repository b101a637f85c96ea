import { test } from "vitest";

/**
 * A test that covers an acceptance scenario of a spec. `npm run verify:acceptance`
 * reads these calls and fails when a scenario in force has none.
 */
export function acceptance(spec: string, scenario: string, fn: () => Promise<void> | void, timeout?: number): void {
  test(`[${spec}] ${scenario}`, fn, timeout);
}
