import { describe, expect, test } from "vitest";
import { GatewayCredentials } from "./gateway-credentials.js";

describe("gateway credentials", () => {
  test("a pre-warmed process's stand-in id stands for the conversation that adopted it", () => {
    const conversations = new Set(["conv-9"]);
    const credentials = new GatewayCredentials("daemon-token", (id) => conversations.has(id));
    const spare = credentials.issue("claude_code", "prewarm-1");
    expect(credentials.verify(spare)).toEqual({ kind: "agent", agent: "claude_code", conversationId: "prewarm-1" });
    credentials.adopt("claude_code", "prewarm-1", "conv-9");
    expect(credentials.verify(spare)).toEqual({ kind: "agent", agent: "claude_code", conversationId: "conv-9" });
    // Only that agent's stand-in, and a forged credential is still refused.
    expect(credentials.verify(credentials.issue("codex", "prewarm-1"))).toMatchObject({ conversationId: "prewarm-1" });
    expect(credentials.verify(spare.slice(0, -2) + "xx")).toBeNull();
  });

  test("a credential stops working once its conversation is gone, also one adopted from a stand-in", () => {
    const conversations = new Set(["conv-1", "conv-2"]);
    const credentials = new GatewayCredentials("daemon-token", (id) => conversations.has(id));
    const direct = credentials.issue("codex", "conv-1");
    const spare = credentials.issue("codex", "prewarm-2");
    credentials.adopt("codex", "prewarm-2", "conv-2");
    conversations.clear();
    expect(credentials.verify(direct)).toBeNull();
    expect(credentials.verify(spare)).toBeNull();
    // A credential the daemon never issued for a missing id (minted elsewhere with the token) is no stand-in.
    expect(credentials.verify(new GatewayCredentials("daemon-token", () => false).issue("codex", "prewarm-3"))).toBeNull();
  });
});
