import { z } from "zod";

/**
 * The agent's model call failed and the agent will try again (Claude `system/api_retry`,
 * Codex `error` with `willRetry`). Not content: it changes what the turn shows ("Retrying
 * — attempt 3 of 6: connection refused" instead of "Thinking") until the next output or the terminal.
 */
export const RetryingEvent = z.object({
  type: z.literal("retrying"),
  // attempt/max_attempts: counted against whichever end comes first (retryAsCounted below).
  attempt: z.number().int().min(1).describe("Which retry this is, from 1."),
  max_attempts: z.number().int().nullable().describe("Where the turn gives up, when known."),
  message: z.string().describe("Why the call failed, short (e.g. \"connection refused\", \"API 529 overloaded\")."),
  delay_ms: z.number().int().nullable().describe("How long the agent waits before this retry, when it says."),
});
export type RetryingEvent = z.infer<typeof RetryingEvent>;

/**
 * The line every surface shows for a retry, so page, CLI and phone read the same:
 * "Retrying — attempt 3 of 6: connection refused" (the give-up point when one applies).
 */
export function retryingLabel(e: Pick<RetryingEvent, "attempt" | "max_attempts" | "message">): string {
  const count = e.max_attempts ? `attempt ${e.attempt} of ${e.max_attempts}` : `attempt ${e.attempt}`;
  return `Retrying — ${count}: ${e.message}`;
}

/**
 * A retry notice as the turn will treat it. The agent counts its own retries against its own
 * cap (Claude: 10), but the daemon ends the turn after `giveUpAfter` notices in a row, so a
 * line saying "5 of 10" would promise attempts that never come. Whichever end comes first is
 * the one the line names: the daemon's (its count, `streak`, of `giveUpAfter`) or the agent's
 * own figures when it has fewer attempts left.
 */
export function retryAsCounted(event: RetryingEvent, streak: number, giveUpAfter: number): RetryingEvent {
  if (giveUpAfter <= 0) return event;
  const attempt = Math.max(1, streak);
  const agentCap = event.max_attempts;
  if (agentCap !== null && agentCap > 0 && agentCap - event.attempt <= giveUpAfter - attempt) return event;
  return { ...event, attempt, max_attempts: giveUpAfter };
}
