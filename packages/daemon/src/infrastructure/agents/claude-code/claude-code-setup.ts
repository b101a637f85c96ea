import type { AgentGlyph, AgentSetupOut } from "@coffer/protocol";

/**
 * How a new owner installs Claude Code and signs in, as GET /chat/agents gives it to the page
 * (shown while `claude` is not on the daemon's PATH). The README's "Installing the agents"
 * section says the same.
 */
export const CLAUDE_CODE_SETUP: AgentSetupOut = {
  install: { command: "npm install -g @anthropic-ai/claude-code" },
  sign_in: [{ command: "claude", note: "then type `/login` and follow the browser sign-in" }, { env: "ANTHROPIC_API_KEY" }],
};

export const CLAUDE_CODE_GLYPH: AgentGlyph = "asterisk";
