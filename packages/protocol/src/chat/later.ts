import { z } from "zod";

// Send later (issue 27): a queued message may carry a time. It waits in its conversation's queue
// until then without holding up the unscheduled messages behind it, then runs in its place in the
// order (behind a running turn, never overlapping). Times cross the wire as ISO strings, like
// every other time here. The descriptions are short on purpose: these shapes are in the page's
// first load (OpenAPI has the README's words instead).

/** send_at on a send (future, at most 30 days ahead) or a queue save (null: drop the time; omitted: kept). */
export const LaterAt = z.string().datetime({ offset: true }).describe("Send later at this ISO time");

/** limit_reset: when the agent's reached plan limit resets (none reached: sent now). */
export const SendWhen = z.enum(["limit_reset"]);
export type SendWhen = z.infer<typeof SendWhen>;

/** How far ahead a message may be scheduled: 30 days. */
export const LATER_MAX_AHEAD_MS = 30 * 86_400_000;

/**
 * A scheduled item's mark in the queue (and on the send's answer). `send_at`: when it goes (for
 * limit_reset the reset as last known: it follows a moved one); `due`: its time came, it runs in
 * its place; `missed`: it came due while the daemon was down and was sent on start.
 */
export const LaterMark = z.object({
  send_at: z.string(),
  when: z.enum(["at", "limit_reset"]),
  due: z.boolean(),
  missed: z.literal(true).optional(),
});
export type LaterMark = z.infer<typeof LaterMark>;
