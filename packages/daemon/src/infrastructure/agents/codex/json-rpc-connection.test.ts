import { describe, expect, test } from "vitest";
import { JsonRpcConnection, JsonRpcError, JsonRpcTimeout } from "./json-rpc-connection.js";
import { answerServerRequest } from "./server-request-policy.js";

function connection(timeoutMs = 1000) {
  const written: any[] = [];
  const notifications: [string, unknown][] = [];
  const malformed: string[] = [];
  const conn = new JsonRpcConnection(
    (line) => {
      expect(line.endsWith("\n")).toBe(true);
      written.push(JSON.parse(line));
    },
    {
      onNotification: (method, params) => notifications.push([method, params]),
      onRequest: answerServerRequest,
      onMalformed: (line) => malformed.push(line),
    },
    timeoutMs,
  );
  return { conn, written, notifications, malformed };
}

describe("JsonRpcConnection", () => {
  test("correlates responses to requests by id, in any order", async () => {
    const { conn, written } = connection();
    const a = conn.request("thread/start", { cwd: "/w" });
    const b = conn.request("turn/start", { threadId: "t" });
    expect(written).toEqual([
      { id: 1, method: "thread/start", params: { cwd: "/w" } },
      { id: 2, method: "turn/start", params: { threadId: "t" } },
    ]);
    conn.receive('{"id":2,"result":{"turn":{"id":"u"}}}');
    conn.receive('{"error":{"code":-32600,"message":"no rollout found for thread id x"},"id":1}');
    await expect(b).resolves.toEqual({ turn: { id: "u" } });
    const err = await a.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JsonRpcError);
    expect(err).toMatchObject({ method: "thread/start", code: -32600, message: "no rollout found for thread id x" });
  });

  test("a request without an answer times out, and its late answer is dropped", async () => {
    const { conn } = connection(20);
    await expect(conn.request("initialize", {})).rejects.toBeInstanceOf(JsonRpcTimeout);
    expect(() => conn.receive('{"id":1,"result":{}}')).not.toThrow();
  });

  test("notifications are passed on; malformed lines are reported and skipped", () => {
    const { conn, notifications, malformed } = connection();
    conn.receive("WARNING: not json at all");
    conn.receive("[1,2]");
    conn.receive('{"hello":"world"}');
    conn.receive("");
    conn.receive('{"method":"turn/started","params":{"threadId":"t"},"emittedAtMs":1}');
    expect(malformed).toEqual(["WARNING: not json at all", "[1,2]", '{"hello":"world"}']);
    expect(notifications).toEqual([["turn/started", { threadId: "t" }]]);
  });

  test("server requests are answered: approvals accepted, the unanswerable declined", () => {
    const { conn, written } = connection();
    conn.receive('{"method":"item/commandExecution/requestApproval","id":0,"params":{"threadId":"t","command":"ls"}}');
    conn.receive('{"method":"applyPatchApproval","id":1,"params":{}}');
    conn.receive('{"method":"mcpServer/elicitation/request","id":2,"params":{"_meta":{"codex_approval_kind":"mcp_tool_call"}}}');
    conn.receive('{"method":"mcpServer/elicitation/request","id":3,"params":{"mode":"form","_meta":null}}');
    conn.receive('{"method":"item/tool/requestUserInput","id":4,"params":{}}');
    conn.receive('{"method":"item/permissions/requestApproval","id":5,"params":{"permissions":{"network":{"enabled":true}}}}');
    expect(written).toEqual([
      { id: 0, result: { decision: "accept" } },
      { id: 1, result: { decision: "approved" } },
      { id: 2, result: { action: "accept", content: {}, _meta: null } },
      { id: 3, result: { action: "decline", content: null, _meta: null } },
      { id: 4, error: { code: -32601, message: "Coffer does not answer item/tool/requestUserInput" } },
      { id: 5, result: { permissions: { network: { enabled: true } }, scope: "turn" } },
    ]);
  });

  test("close fails every pending request and any later one", async () => {
    const { conn } = connection();
    const pending = conn.request("turn/start", {});
    const gone = new Error("codex app-server exited (code 1)");
    conn.close(gone);
    await expect(pending).rejects.toBe(gone);
    await expect(conn.request("turn/interrupt", {})).rejects.toBe(gone);
    expect(conn.closed).toBe(true);
  });
});
