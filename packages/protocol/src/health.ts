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
