import { DomainError } from "../../domain/errors.js";
import type { ToolOutcome } from "./builtin-tools.js";

/**
 * Runs a tool body and turns what it throws into an error result: a tool never throws at
 * the gateway, the agent reads the problem instead. Domain errors carry the owner-facing
 * message; anything else is reported with its message (nothing is swallowed).
 */
export async function toolOutcome(body: () => unknown): Promise<ToolOutcome> {
  try {
    return { ok: true, value: await body() };
  } catch (err) {
    if (err instanceof DomainError) return { ok: false, error: err.message };
    return { ok: false, error: `the tool failed: ${err instanceof Error ? err.message : String(err)}` };
  }
}
