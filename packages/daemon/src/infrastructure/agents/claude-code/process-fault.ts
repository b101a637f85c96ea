import type { TurnErrorCode, TurnErrorEvent } from "@coffer/protocol";
import type { ProcessEnd } from "./claude-process.js";
import { notInstalledError } from "../not-installed.js";

/**
 * turn_error codes a Claude Code turn can end with (besides the engine's own
 * `turn_timeout` / `daemon_shutdown`). Agent-neutral, so a client can treat every
 * managed agent alike.
 */
export const FAULT = {
  notInstalled: "agent_not_installed",
  crashed: "agent_crashed",
  exited: "agent_exited",
  protocol: "agent_protocol_error",
  sessionLost: "agent_session_lost",
  failed: "agent_error",
} as const satisfies Record<string, TurnErrorCode>;

/** One clear turn_error for a turn whose process failed it. Pure. */
export function processFault(end: ProcessEnd | null, sdkError: unknown): TurnErrorEvent {
  const stderr = end?.stderrTail ? `: ${lastLines(end.stderrTail)}` : "";
  if (end?.spawnError) {
    const { code, message } = end.spawnError;
    const why = code === "ENOENT" || code === "EACCES" ? FAULT.notInstalled : FAULT.failed;
    return { type: "turn_error", code: why, message: `Claude Code could not be started (${code ?? message})` };
  }
  if (end?.protocolFault !== null && end?.protocolFault !== undefined) {
    return {
      type: "turn_error",
      code: FAULT.protocol,
      message: `Claude Code wrote something that is not JSON on stdout, so the turn was stopped: "${end.protocolFault}"`,
    };
  }
  if (end && end.signal && !end.killedByUs) {
    return { type: "turn_error", code: FAULT.crashed, message: `Claude Code crashed mid-turn (killed by ${end.signal})${stderr}` };
  }
  if (end && end.exitCode !== null && end.exitCode !== 0) {
    return { type: "turn_error", code: FAULT.exited, message: `Claude Code exited with code ${end.exitCode}${stderr}` };
  }
  if (end) {
    return { type: "turn_error", code: FAULT.exited, message: `Claude Code exited before finishing the turn${stderr}` };
  }
  const message = sdkError instanceof Error ? sdkError.message : String(sdkError ?? "the Claude Code stream ended early");
  return { type: "turn_error", code: FAULT.failed, message };
}

export function notInstalled(): TurnErrorEvent {
  return notInstalledError("Claude Code", "claude");
}

function lastLines(text: string): string {
  return text.split("\n").slice(-5).join("\n").slice(-1000);
}
