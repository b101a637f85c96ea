import { z } from "zod";

export const HealthOut = z.object({
  status: z.literal("ok"),
  version: z.string(),
  pid: z.number().int(),
  uptime_ms: z.number().int(),
});
export type HealthOut = z.infer<typeof HealthOut>;

/** What the daemon writes to `<data dir>/daemon.json` so the CLI can find it. */
export const DaemonInfo = z.object({ pid: z.number().int(), port: z.number().int(), url: z.string() });
export type DaemonInfo = z.infer<typeof DaemonInfo>;

/**
 * The `<meta name=…>` the daemon puts in the page's HTML with the sign-in command as the owner
 * types it where the daemon was started (`coffer open`, or `npm run coffer -- open` in a clone).
 * In the HTML, not an API answer: the page trusts it exactly as far as it trusts the process
 * that served it, and a later impostor on the port cannot change what an open tab tells the owner.
 */
export const OPEN_COMMAND_META = "coffer-open-command";
export const DEFAULT_OPEN_COMMAND = "coffer open";
