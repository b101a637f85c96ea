import { describe, expect, test } from "vitest";
import { GatewayCredentials } from "./gateway-credentials.js";

describe("gateway credentials", () => {
  test("a pre-warmed process's stand-in id stands for the conversation that adopted it", () => {
    const credentials = new GatewayCredentials("daemon-token");
    const spare = credentials.issue("claude_code", "prewarm-1");
    expect(credentials.verify(spare)).toEqual({ kind: "agent", agent: "claude_code", conversationId: "prewarm-1" });
    credentials.adopt("claude_code", "prewarm-1", "conv-9");
    expect(credentials.verify(spare)).toEqual({ kind: "agent", agent: "claude_code", conversationId: "conv-9" });
    // Only that agent's stand-in, and a forged credential is still refused.
    expect(credentials.verify(credentials.issue("codex", "prewarm-1"))).toMatchObject({ conversationId: "prewarm-1" });
    expect(credentials.verify(spare.slice(0, -2) + "xx")).toBeNull();
  });
});
