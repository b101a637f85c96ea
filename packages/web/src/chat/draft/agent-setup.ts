/**
 * How to install and sign in to each agent Coffer drives — what a new owner needs when the
 * agent's CLI is not on the daemon's PATH. Kept beside the page that shows it; the README's
 * "Installing the agents" section says the same.
 */
export interface SetupStep {
  readonly label: string;
  readonly command: string;
  /** Plain text; `backticked` parts are shown as code (never as literal backticks). */
  readonly note?: string;
}

export interface AgentSetup {
  readonly name: string;
  readonly binary: string;
  readonly steps: readonly SetupStep[];
}

export const AGENT_SETUP: Readonly<Record<string, AgentSetup>> = {
  claude_code: {
    name: "Claude Code",
    binary: "claude",
    steps: [
      { label: "Install", command: "npm install -g @anthropic-ai/claude-code" },
      { label: "Sign in", command: "claude", note: "then type `/login` and follow the browser sign-in (or set `ANTHROPIC_API_KEY` for the daemon)" },
    ],
  },
  codex: {
    name: "Codex",
    binary: "codex",
    steps: [
      { label: "Install", command: "npm install -g @openai/codex" },
      { label: "Sign in", command: "codex login", note: "signs in with ChatGPT in the browser (or set `OPENAI_API_KEY` for the daemon)" },
    ],
  },
};
