import type { AgentEvent, TurnErrorEvent } from "@coffer/protocol";
import type { AgentAdapter } from "../../application/ports.js";

/** The one fault every managed agent reports the same way: its CLI is not on the daemon's PATH. */
export function notInstalledError(displayName: string, binary: string): TurnErrorEvent {
  return {
    type: "turn_error",
    code: "agent_not_installed",
    message: `${displayName} is not installed: no \`${binary}\` on the daemon's PATH`,
  };
}

/** A turn that ends at once with that error, so the owner sees why in the thread (and can retry). */
export function notInstalledAdapter(displayName: string, binary: string): AgentAdapter {
  return {
    async *runTurn(): AsyncGenerator<AgentEvent> {
      yield notInstalledError(displayName, binary);
    },
  };
}
