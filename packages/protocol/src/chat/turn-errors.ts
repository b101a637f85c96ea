import { z } from "zod";
import { ErrorCode } from "../wire/errors.js";

/**
 * Every code a turn can end with (a `turn_error` event, a failed reply's `error`), besides the
 * catalogue's own codes (a use case's DomainError, INTERNAL_ERROR) which can end a turn too.
 * One line each; snake_case, since they name what happened to the turn, not a request's fault.
 * Agent-neutral `agent_*` for a CLI's process faults, `codex_*` for the app-server's
 * (docs/decisions.md, "Agents").
 */
export const TURN_ERROR_CATALOGUE = {
  turn_timeout: "the agent produced no output for the idle timeout, so the engine stopped the turn",
  stream_ended: "the agent's stream ended without a terminal event",
  daemon_shutdown: "the daemon shut down during the turn",
  daemon_restart: "the daemon stopped mid-turn and found the reply still streaming at its next start",
  TURN_START_FAILED: "a queued message could not start its turn (an unexpected fault)",
  agent_not_installed: "the agent's CLI is not on the daemon's PATH or cannot be executed",
  agent_crashed: "the agent's process died from a signal the daemon did not send",
  agent_exited: "the agent's process exited before the turn's result",
  agent_protocol_error: "the agent's process wrote something that is not its protocol",
  agent_api_error: "the model API failed the turn (e.g. an unknown model)",
  agent_error: "the agent ended the turn with an error result, or its SDK failed",
  agent_session_lost: "the stored session could not be resumed and a fresh one failed the same way",
  codex_connect_error: "the Codex app-server could not start or did not answer initialize",
  codex_thread_error: "thread/start or thread/resume failed",
  codex_turn_start_failed: "turn/start was refused",
  codex_timeout: "a request to the app-server got no answer in time",
  codex_error: "Codex reported an error it will not retry (e.g. the model API failed)",
  codex_turn_failed: "turn/completed with status failed and no earlier error",
  codex_exited: "the app-server died during the turn",
  plan_limit: "the agent's plan (subscription) limit is reached; the queue waits for its reset",
  model_unreachable: "the agent kept retrying the model API past COFFER_TURN_RETRY_GIVE_UP, so the engine stopped the turn",
} as const satisfies Record<string, string>;

export type TurnErrorCode = keyof typeof TURN_ERROR_CATALOGUE;
export const TurnErrorCode = z.enum(Object.keys(TURN_ERROR_CATALOGUE) as [TurnErrorCode, ...TurnErrorCode[]]);

/** What a `turn_error` event or a failed reply's `error.code` holds. */
export const TurnFailureCode = z.enum([...TurnErrorCode.options, ...ErrorCode.options]);
export type TurnFailureCode = z.infer<typeof TurnFailureCode>;
