import type { ContentBlock, RetryingEvent, TurnDoneEvent, TurnErrorEvent } from "@coffer/protocol";
import { DomainError } from "../../domain/errors.js";
import type { AgentOutputScrubber } from "../secrets/agent-output-scrubber.js";
import type { ActiveTurn, TurnTimings } from "./active-turn.js";

/** How a turn ends: the one terminal event, whoever stopped it (runTurn's last word). */
export function terminalFor(
  turn: ActiveTurn,
  fromAdapter: TurnDoneEvent | TurnErrorEvent | null,
  failure: TurnErrorEvent | null,
  timings: TurnTimings,
  gaveUp: { attempts: number; last: RetryingEvent } | null,
): TurnDoneEvent | TurnErrorEvent {
  switch (turn.stopReason) {
    case "unreachable":
      return {
        type: "turn_error",
        code: "model_unreachable",
        message: `the model API could not be reached after ${gaveUp?.attempts ?? "several"} attempts${gaveUp ? ` (last: ${gaveUp.last.message})` : ""}, so the turn was stopped`,
      };
    case "interrupt":
      return {
        type: "turn_done",
        prompt_tokens: fromAdapter?.type === "turn_done" ? fromAdapter.prompt_tokens : null,
        completion_tokens: fromAdapter?.type === "turn_done" ? fromAdapter.completion_tokens : null,
        stop_reason: "interrupted",
        model: fromAdapter?.type === "turn_done" ? fromAdapter.model : null,
      };
    case "timeout":
      return {
        type: "turn_error",
        code: "turn_timeout",
        message: `the agent produced no output for ${Math.round(timings.watchdogMs / 1000)} s, so the turn was stopped`,
      };
    case "shutdown":
      return { type: "turn_error", code: "daemon_shutdown", message: "the daemon shut down during this turn" };
    default:
      return (
        failure ??
        fromAdapter ?? {
          type: "turn_error",
          code: "stream_ended",
          message: "the agent stopped without finishing its reply",
        }
      );
  }
}

/** The reply so far, closed by a steer: complete, with the steer as how it ended. */
export function steeredFinal(content: readonly ContentBlock[], model: string | null) {
  return { content, status: "complete" as const, modelId: model, promptTokens: null, completionTokens: null, stopReason: "steered", error: null };
}

/** An adapter's failure as the turn's terminal; its message may quote what the agent saw, so it is scrubbed. */
export function errorEvent(err: unknown, output: AgentOutputScrubber): TurnErrorEvent {
  if (err instanceof DomainError) return { type: "turn_error", code: err.code, message: output.scrub(err.message) };
  return {
    type: "turn_error",
    code: "INTERNAL_ERROR",
    message: output.scrub(err instanceof Error ? err.message : String(err)),
  };
}
