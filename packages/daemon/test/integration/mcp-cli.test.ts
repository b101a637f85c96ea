/** `coffer mcp …` as a user runs it: the built CLI against a real daemon with a real stdio upstream. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { FIXTURES, gatewayClient, serverStatus, textOf } from "../fixtures/mcp/gateway-client.js";
import { startTestDaemon, type TestDaemon } from "../support/test-daemon.js";

const CLI = fileURLToPath(new URL("../../../cli/dist/main.js", import.meta.url));
let t: TestDaemon;

beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(() => t.close());

function coffer(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, "--url", t.daemon.url, "--token", t.daemon.token, ...args]);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe("coffer mcp", { timeout: 60_000 }, () => {
  test("add, ls, tools, log, disable, rm — as text and --json", async () => {
    const added = await coffer(["mcp", "add", "fx", "--env", "GREETING=yo", "--json", "--", process.execPath, `${FIXTURES}healthy-server.mjs`]);
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ name: "fx", transport: "stdio", env: { GREETING: "yo" } });
    await serverStatus(t.api, "fx", "ready");

    const ls = await coffer(["mcp", "ls", "--json"]);
    expect(JSON.parse(ls.stdout).servers[0]).toMatchObject({ name: "fx", status: "ready" });
    expect((await coffer(["mcp", "ls"])).stdout).toMatch(/^fx\s+stdio\s+ready\s+8 tools/m);

    const tools = JSON.parse((await coffer(["mcp", "tools", "fx", "--json"])).stdout).tools as any[];
    expect(tools.map((x) => x.name)).toContain("fx__echo");
    expect((await coffer(["mcp", "tools"])).stdout).toContain("coffer__search_tools");

    const client = await gatewayClient(t.daemon.url, t.daemon.token, "cli-test-agent/2.0");
    expect(textOf(await client.callTool({ name: "fx__echo", arguments: { text: "hey" } }))).toBe("yo: hey");
    await client.close();
    const log = JSON.parse((await coffer(["mcp", "log", "--server", "fx", "--json"])).stdout);
    expect(log.invocations[0]).toMatchObject({ caller: "cli-test-agent", tool: "fx__echo", outcome: "ok" });
    expect((await coffer(["mcp", "log"])).stdout).toMatch(/cli-test-agent\s+fx__echo\s+\d+ ms\s+ok/);

    expect((await coffer(["mcp", "disable", "fx"])).stdout).toContain("disabled fx; status: disabled");
    expect((await coffer(["mcp", "rm", "fx"])).code).toBe(0);
    const again = await coffer(["mcp", "rm", "fx"]);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain("MCP_SERVER_NOT_FOUND");
  });

  test("usage mistakes are refused before reaching the daemon", async () => {
    const both = await coffer(["mcp", "add", "x", "--http", "http://127.0.0.1:1/mcp", "--", "node"]);
    expect(both.code).toBe(4);
    expect(both.stderr).toContain("either --http <url> or a command");
    const refHeader = await coffer(["mcp", "add", "h", "--http", "http://127.0.0.1:1/mcp", "--header-ref", "Authorization=gh", "--json"]);
    expect(JSON.parse(refHeader.stdout).headers).toEqual({ Authorization: { credential: "gh" } });
  });
});
