/**
 * Issue 11, finding 7: the MCP invocation log is bounded — by age (retention passes) and by a
 * row cap (enforced as calls are logged) — and a call with an absurd tool name is answered
 * clearly without storing (or echoing) the name. Real daemon, real MCP client over HTTP,
 * real SQLite file.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, test } from "vitest";
import { gatewayClient, textOf } from "../fixtures/mcp/gateway-client.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";
import { registerEchoTool } from "../support/echo-tool.js";

const DAY = 86_400_000;
const T0 = Date.parse("2026-05-20T00:00:00Z");

let t: TestDaemon | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await t?.close();
  client = t = undefined;
});

async function start(mcpLog: { maxAgeMs: number | null; maxRows: number }, clock?: { now: () => number }) {
  t = await startTestDaemon({
    mcpLog,
    ...(clock ? { clock } : {}),
    extraBuiltinTools: registerEchoTool,
  });
  client = await gatewayClient(t.daemon.url, t.daemon.token);
  return t;
}

const call = (n: number) => client!.callTool({ name: "coffer__test_echo", arguments: { n } });
const logged = async () => (await t!.api.get("/mcp/invocations?limit=500")).body.invocations as { id: number; at: string; tool: string }[];

describe("the MCP invocation log is bounded", { timeout: 30_000 }, () => {
  test("rows older than the age bound go on the retention pass; newer ones stay", async () => {
    let now = T0;
    await start({ maxAgeMs: 30 * DAY, maxRows: 100_000 }, { now: () => now });
    for (let i = 0; i < 3; i += 1) await call(i);
    now = T0 + 20 * DAY;
    for (let i = 0; i < 2; i += 1) await call(i);
    now = T0 + 31 * DAY;
    await t!.daemon.retention.runOnce();
    const rows = await logged();
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.at === new Date(T0 + 20 * DAY).toISOString())).toBe(true);
  });

  test("past the row cap the oldest rows go as calls are logged", async () => {
    await start({ maxAgeMs: null, maxRows: 5 });
    for (let i = 0; i < 12; i += 1) await call(i);
    const rows = await logged();
    expect(rows).toHaveLength(5);
    // The newest five, in order: nothing newer was dropped.
    const all = rows.map((r) => r.id);
    expect(all).toEqual([...all].sort((a, b) => b - a));
    expect(all[0]! - all[4]!).toBe(4);
  });

  test("a 3 MB tool name is answered clearly and never stored", async () => {
    await start({ maxAgeMs: null, maxRows: 100_000 });
    const dbFile = join(t!.home, "coffer.db");
    const name = `x__${"y".repeat(3 * 1024 * 1024)}`;
    for (let i = 0; i < 3; i += 1) {
      const result = await client!.callTool({ name, arguments: {} });
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toMatch(/unknown tool: its name is 3145731 characters long; Coffer's tool names are at most 200/);
      expect(text.length).toBeLessThan(300);
    }
    const rows = await logged();
    expect(rows).toHaveLength(3);
    for (const r of rows) expect(r.tool.length).toBeLessThan(100);
    expect(rows[0]).toMatchObject({ outcome: "unknown_tool" });
    // The database (and its WAL) stays small: no row holds megabytes.
    const bytes = statSync(dbFile).size + (statSync(`${dbFile}-wal`, { throwIfNoEntry: false })?.size ?? 0);
    expect(bytes).toBeLessThan(3 * 1024 * 1024);
  });
});
