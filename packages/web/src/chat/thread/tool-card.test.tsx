import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { keyArgument, ToolCard } from "./tool-card.js";

const use = { type: "tool_use" as const, tool_use_id: "t1", tool_name: "Bash", tool_input: { command: "npm test" } };

describe("ToolCard", () => {
  it("starts collapsed and opens on click to show input and output", async () => {
    render(<ToolCard use={use} result={{ type: "tool_result", tool_use_id: "t1", tool_name: "Bash", output: "all green", error: null }} status="done" />);
    const head = screen.getByRole("button", { name: "Bash: npm test, done" });
    expect(head).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByText("all green")).toBeNull();
    await userEvent.click(head);
    expect(head).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByText("$ npm test")).toBeInTheDocument();
    expect(screen.getByText("all green")).toBeInTheDocument();
  });

  it("names a failed call and shows its error", async () => {
    render(<ToolCard use={use} result={{ type: "tool_result", tool_use_id: "t1", tool_name: "Bash", output: null, error: "exit 1" }} status="failed" />);
    await userEvent.click(screen.getByRole("button", { name: "Bash: npm test, failed" }));
    expect(screen.getByText("Error")).toBeInTheDocument();
    expect(screen.getByText("exit 1")).toBeInTheDocument();
  });

  it("shows a running call with its word, and summarises multi-line scripts", () => {
    render(<ToolCard use={use} result={null} status="running" />);
    expect(screen.getByRole("button", { name: "Bash: npm test, running" })).toBeInTheDocument();
    expect(keyArgument({ command: "a\nb\nc" })).toBe("script (3 lines)");
    expect(keyArgument({ file_path: "/x/y.ts", content: "..." })).toBe("/x/y.ts");
  });

  it("names an MCP tool humanly (server · tool), keeping the raw name as a title", () => {
    const mcp = { type: "tool_use" as const, tool_use_id: "t2", tool_name: "mcp__coffer__coffer__recall", tool_input: { query: "deploy" } };
    render(<ToolCard use={mcp} result={null} status="running" />);
    const head = screen.getByRole("button", { name: "coffer · recall: deploy, running" });
    expect(head.textContent).not.toContain("mcp__");
    expect(screen.getByTitle("mcp__coffer__coffer__recall")).toHaveTextContent("coffer · recall");
  });
});
