import { z } from "zod";

/**
 * The agent's model call failed and the agent will try again (Claude `system/api_retry`,
 * Codex `error` with `willRetry`). Not content: it changes what the turn shows ("Retrying
 * (3/10): connection refused" instead of "Thinking") until the next output or the terminal.
 */
export const RetryingEvent = z.object({
  type: z.literal("retrying"),
  attempt: z.number().int().min(1).describe("Which retry this is, from 1."),
  max_attempts: z.number().int().nullable().describe("The agent's own cap on retries, when it says."),
  message: z.string().describe("Why the call failed, short (e.g. \"connection refused\", \"API 529 overloaded\")."),
  delay_ms: z.number().int().nullable().describe("How long the agent waits before this retry, when it says."),
});
export type RetryingEvent = z.infer<typeof RetryingEvent>;

/** The line every surface shows for a retry, so page, CLI and phone read the same. */
export function retryingLabel(e: Pick<RetryingEvent, "attempt" | "max_attempts" | "message">): string {
  const count = e.max_attempts ? `${e.attempt}/${e.max_attempts}` : `${e.attempt}`;
  return `Retrying (${count}): ${e.message}`;
}
