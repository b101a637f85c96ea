/**
 * Claude Code turn start with the REAL `claude` (the Agent SDK's bundled binary) against
 * the fake Anthropic server on 127.0.0.1, which streams at once, so the figure is Coffer +
 * Claude Code, not a model:
 *   cold  a new conversation's first turn: process start, initialize, system/init
 *   warm  the next turn of a live conversation on its warm streaming-input process
 */
import { startAgentHarness } from "../../packages/daemon/test/fakes/agent-harness.js";
import { timeFirstDelta, type AgentTurnBench, type AgentTurnTarget } from "./turn-timing.js";

export const claudeCodeTurns: AgentTurnBench = {
  name: "Claude Code",
  async start(): Promise<AgentTurnTarget> {
    const h = await startAgentHarness("claude_code");
    const daemon = () => ({ url: h.daemon.daemon.url, token: h.daemon.daemon.token, api: h.daemon.api });
    const model = { model: "claude-sonnet-4-5" };
    const live = await h.conversation(model);
    await timeFirstDelta(daemon(), live, "warm-up");
    return {
      async coldTurn(run) {
        return timeFirstDelta(daemon(), await h.conversation(model), `cold ${run}`);
      },
      warmTurn: (run) => timeFirstDelta(daemon(), live, `warm ${run}`),
      close: () => h.close(),
    };
  },
};
