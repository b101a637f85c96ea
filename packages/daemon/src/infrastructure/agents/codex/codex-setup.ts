import type { AgentGlyph, AgentSetupOut } from "@coffer/protocol";

/**
 * How a new owner installs Codex and signs in, as GET /chat/agents gives it to the page
 * (shown while `codex` is not on the daemon's PATH). The README's "Installing the agents"
 * section says the same.
 */
export const CODEX_SETUP: AgentSetupOut = {
  install: { command: "npm install -g @openai/codex" },
  sign_in: [{ command: "codex login", note: "signs in with ChatGPT in the browser" }, { env: "OPENAI_API_KEY" }],
};

export const CODEX_GLYPH: AgentGlyph = "hexagon";
