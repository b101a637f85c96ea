import { describe, expect, test } from "vitest";
import type { GatewayService, GatewayTool } from "../../application/gateway/gateway-ports.js";
import { createGatewayEndpoint, gatewayRehearsal } from "./gateway-endpoint.js";

/** The gateway's catalogue as the endpoint sees it, counting what the rehearsal asks of it. */
function countingGateway(): GatewayService & { lists: number; calls: number } {
  const tool: GatewayTool = { name: "coffer__memory_read", server: "coffer", description: "Read memory", inputSchema: { type: "object", properties: {} } };
  return {
    lists: 0,
    calls: 0,
    async listTools() {
      this.lists++;
      return [tool];
    },
    async callTool() {
      this.calls++;
      throw new Error("a rehearsal never calls a tool");
    },
  };
}

describe("gateway rehearsal", () => {
  test("runs one whole handshake through the real endpoint, once, and never calls a tool", async () => {
    const gateway = countingGateway();
    const endpoint = createGatewayEndpoint(gateway, "0.0.0");
    const answers: number[] = [];
    const observed: typeof endpoint = async (request, principal) => {
      const res = await endpoint(request, principal);
      answers.push(res.status);
      return res;
    };
    const rehearse = gatewayRehearsal(observed);
    await rehearse();
    // initialize (200), notifications/initialized (202), tools/list (200): the exchanges a CLI's start-up makes.
    expect(answers).toEqual([200, 202, 200]);
    expect(gateway.lists).toBe(1);
    expect(gateway.calls).toBe(0);
    await rehearse(); // every later intent finds it done
    expect(answers).toHaveLength(3);
  });

  test("a rehearsal that failed is tried again at the next intent", async () => {
    let fail = true;
    const endpoint = createGatewayEndpoint(countingGateway(), "0.0.0");
    let exchanges = 0;
    const rehearse = gatewayRehearsal(async (request, principal) => {
      exchanges++;
      if (fail) return new Response("down", { status: 503 });
      return endpoint(request, principal);
    });
    await rehearse(); // settles without throwing: nothing waits on a rehearsal
    expect(exchanges).toBe(1);
    fail = false;
    await rehearse();
    expect(exchanges).toBe(4);
  });
});
