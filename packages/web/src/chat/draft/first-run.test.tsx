import type { AgentOut } from "@coffer/protocol";
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AgentSetupCard, FirstRun } from "./first-run.js";

/** An agent this page was never told about: everything the card shows comes from its list item. */
const third: Pick<AgentOut, "display_name" | "setup" | "glyph"> = {
  display_name: "Aider",
  glyph: "sparkle-v2",
  setup: {
    install: { command: "pipx install aider-chat", note: "needs Python 3.10 or later" },
    sign_in: [{ env: "AIDER_API_KEY" }, { env: "OPENROUTER_API_KEY" }],
    docs_url: "https://aider.example/docs/install",
  },
};

describe("the setup card draws any agent from GET /chat/agents", () => {
  it("an unknown third agent: its own steps, a copy button per command and the neutral mark", () => {
    const { container } = render(<AgentSetupCard agent={third} />);
    const card = screen.getByRole("region", { name: "Set up Aider" });
    expect(within(card).getByRole("heading", { name: /Aider/ })).toBeInTheDocument();
    expect(within(card).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      expect.stringMatching(/^Install.*pipx install aider-chat.*needs Python 3\.10 or later$/),
      "Sign inSet AIDER_API_KEY or OPENROUTER_API_KEY for the daemon",
    ]);
    // Only commands are copyable; environment variable names are shown as code, never with backticks.
    expect(within(card).getAllByRole("button").map((b) => b.getAttribute("aria-label"))).toEqual(["Copy: pipx install aider-chat"]);
    expect([...card.querySelectorAll("code")].map((c) => c.textContent)).toEqual(["pipx install aider-chat", "AIDER_API_KEY", "OPENROUTER_API_KEY"]);
    expect(card.textContent).not.toContain("`");
    expect(within(card).getByRole("link", { name: "Aider's documentation" })).toHaveAttribute("href", "https://aider.example/docs/install");
    // A glyph id the page does not know: the neutral mark, not a blank and not another agent's.
    expect(container.querySelector("svg.agent-mark")).toHaveAttribute("data-glyph", "generic");
  });

  it("a sign-in command with its note says the environment alternative after it, in the same words as before", () => {
    render(
      <AgentSetupCard
        agent={{
          display_name: "Codex",
          glyph: "hexagon",
          setup: { install: { command: "npm install -g @openai/codex" }, sign_in: [{ command: "codex login", note: "signs in with ChatGPT in the browser" }, { env: "OPENAI_API_KEY" }] },
        }}
      />,
    );
    const card = screen.getByRole("region", { name: "Set up Codex" });
    expect(within(card).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      expect.stringMatching(/^Install\s*npm install -g @openai\/codex/),
      expect.stringMatching(/^Sign in\s*codex login.*signs in with ChatGPT in the browser \(or set OPENAI_API_KEY for the daemon\)$/),
    ]);
    expect(card.querySelector("svg.agent-mark")).toHaveAttribute("data-glyph", "hexagon");
    expect(within(card).queryByRole("link")).toBeNull();
  });

  it("the first run names every agent the daemon offers and gives each its card", () => {
    const item = (agent_key: string, display_name: string, glyph: string): AgentOut => ({ agent_key, display_name, glyph, available: false, setup: { ...third.setup } });
    const agents = [item("claude_code", "Claude Code", "asterisk"), item("codex", "Codex", "hexagon"), item("aider", "Aider", "sparkle-v2")];
    render(<FirstRun agents={agents} checking={false} onCheck={() => undefined} />);
    expect(screen.getByText(/Coffer drives/).textContent).toMatch(/^Coffer drives Claude Code, Codex or Aider on this machine\./);
    expect(screen.getAllByRole("region").map((r) => r.getAttribute("aria-label"))).toEqual(["Set up Claude Code", "Set up Codex", "Set up Aider"]);
    expect([...document.querySelectorAll("svg.agent-mark")].map((m) => m.getAttribute("data-glyph"))).toEqual(["asterisk", "hexagon", "generic"]);
  });
});
