/**
 * The audit log is bounded by age (COFFER_AUDIT_MAX_AGE_DAYS, a year by default): the soak
 * found it the one table that grows without end (a row per turn). Real daemon, real SQLite file;
 * the daemon's clock is moved instead of waiting.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, expect, test } from "vitest";
import { resolveDaemonConfig } from "../../src/config.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const DAY = 86_400_000;
const T0 = Date.parse("2026-05-20T00:00:00Z");
let t: TestDaemon | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const auditTimes = (home: string) => {
  const db = new Database(join(home, "coffer.db"), { readonly: true });
  try {
    return (db.prepare("SELECT at FROM audit_log ORDER BY id").all() as { at: number }[]).map((r) => r.at);
  } finally {
    db.close();
  }
};

test("audit rows older than the age bound go on the retention pass; newer ones stay", async () => {
  let now = T0;
  t = await startTestDaemon({ auditMaxAgeMs: 30 * DAY, clock: { now: () => now } });
  for (let i = 0; i < 3; i += 1) await t.api.post("/chat/conversations", { agent_key: "scripted" });
  now = T0 + 20 * DAY;
  await t.api.post("/chat/conversations", { agent_key: "scripted" });
  expect(auditTimes(t.home).filter((at) => at === T0).length).toBeGreaterThanOrEqual(3);
  now = T0 + 31 * DAY;
  await t.daemon.retention.runOnce();
  const left = auditTimes(t.home);
  expect(left.length).toBeGreaterThan(0);
  expect(left.every((at) => at >= T0 + DAY)).toBe(true);
  expect(left).toContain(T0 + 20 * DAY);
});

test("a year by default, and 0 keeps the audit log forever", () => {
  const base = { HOME: "/nonexistent-home" };
  expect(resolveDaemonConfig(base, { port: 0, home: "/tmp/x" }).auditMaxAgeMs).toBe(365 * DAY);
  expect(resolveDaemonConfig({ ...base, COFFER_AUDIT_MAX_AGE_DAYS: "0" }, { port: 0, home: "/tmp/x" }).auditMaxAgeMs).toBeNull();
});
