import { test } from "vitest";

/**
 * A component test that covers an acceptance scenario of a spec (the web twin of
 * packages/daemon/test/support/acceptance.ts). `npm run verify:acceptance` reads these calls.
 */
export function acceptance(spec: string, scenario: string, fn: () => Promise<void> | void, timeout?: number): void {
  test(`[${spec}] ${scenario}`, fn, timeout);
}
