import { describe, expect, test } from "vitest";
import { createApiClient, type ApiTransport } from "./api-client.js";
import { ROUTE_LIST, ROUTES } from "../routes.js";
import { routePath } from "./route-spec.js";

/** A transport that answers from a list and records what it was asked (the client's seam; HTTP is covered by the CLI and page suites). */
function recording(answers: unknown[]) {
  const sent: Parameters<ApiTransport>[0][] = [];
  const transport: ApiTransport = async (request) => {
    sent.push(request);
    return answers.shift() ?? null;
  };
  return { sent, client: createApiClient(transport) };
}

describe("the typed client", () => {
  test("names are unique and every path parameter is a {name}", () => {
    expect(new Set(ROUTE_LIST.map((r) => r.name)).size).toBe(ROUTE_LIST.length);
    expect(new Set(ROUTE_LIST.map((r) => `${r.method} ${r.path}`)).size).toBe(ROUTE_LIST.length);
  });

  test("path parameters are encoded in one place; empty query values are left out", () => {
    expect(routePath(ROUTES.getConversation, { id: "a/b c?#" })).toBe("/chat/conversations/a%2Fb%20c%3F%23");
    expect(routePath(ROUTES.listConversations, {}, { archived: false, q: "", cursor: undefined, limit: 50 })).toBe(
      "/chat/conversations?archived=false&limit=50",
    );
    expect(() => routePath(ROUTES.getConversation, {})).toThrow(/needs the parameter id/);
  });

  test("sends the route's method, path and body; a POST without a body schema sends {}; a 204 is null", async () => {
    const { sent, client } = recording([null, null]);
    expect(await client.call(ROUTES.interruptTurn, { params: { id: "c/1" } })).toBeNull();
    expect(await client.call(ROUTES.deleteConversation, { params: { id: "c1" } })).toBeNull();
    expect(sent).toEqual([
      { method: "POST", path: "/chat/conversations/c%2F1/interrupt", body: {} },
      { method: "DELETE", path: "/chat/conversations/c1", body: undefined },
    ]);
  });

  test("answers are parsed with the route's success schema, so an off-contract answer fails", async () => {
    const agent = { agent_key: "a", display_name: "A", available: true, setup: { install: { command: "install-a" }, sign_in: [{ env: "A_KEY" }] }, glyph: "generic" };
    const { client } = recording([{ agents: [agent] }, { agents: "nope" }]);
    expect(await client.call(ROUTES.listAgents)).toEqual({ agents: [agent] });
    await expect(client.call(ROUTES.listAgents)).rejects.toThrow();
  });

  test("a stream route is refused (it has its own reader)", async () => {
    const { client, sent } = recording([]);
    await expect(client.call(ROUTES.conversationEvents, { params: { id: "c1" } })).rejects.toThrow(/stream/);
    expect(sent).toEqual([]);
  });
});
