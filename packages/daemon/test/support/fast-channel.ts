import type { StartOptions } from "../../src/main.js";

/** Fast but realistic channel timings for tests: short backoffs, a 300 ms edit interval. */
export const FAST_CHANNEL: Partial<StartOptions> = {
  channelTimings: { backoffMs: [20, 50, 100], editIntervalMs: 300 },
  telegramRetry: { maxRetryAttempts: 3, maxDelaySeconds: 5, backoffSeconds: 0.02 },
  // The fake Discord's gateway takes a re-IDENTIFY at once (Discord's spacing is 5 s).
  discordIdentifySpacingMs: 0,
};
