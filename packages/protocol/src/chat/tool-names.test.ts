import { describe, expect, it } from "vitest";
import { humanToolName } from "./tool-names.js";

describe("humanToolName", () => {
  it("names a gateway tool by server and tool, from either agent's spelling", () => {
    expect(humanToolName("mcp__coffer__coffer__recall")).toBe("coffer · recall");
    expect(humanToolName("coffer__coffer__recall")).toBe("coffer · recall");
    expect(humanToolName("coffer__recall")).toBe("coffer · recall");
    expect(humanToolName("mcp__coffer__github__create_issue")).toBe("github · create_issue");
  });
  it("names any other MCP server's tool as server · tool", () => {
    expect(humanToolName("mcp__playwright__browser_click")).toBe("playwright · browser_click");
    expect(humanToolName("linear__list__issues")).toBe("linear · list__issues");
  });
  it("leaves built-in tools alone", () => {
    expect(humanToolName("Bash")).toBe("Bash");
    expect(humanToolName("web_search")).toBe("web_search");
    expect(humanToolName("mcp__")).toBe("mcp__");
  });
});
