import { z } from "zod";

/**
 * Speed and footprint (issue 16): what the daemon is holding (GET /system/stats, `coffer
 * stats`) and the page's hint that the owner is about to send (pre-warm).
 */

/** One agent process the daemon keeps running. */
export const WarmProcessOut = z.object({
  pid: z.number().int(),
  agent_key: z.string(),
  /** The conversation it serves; null for a spare pre-warmed for a draft, or a shared process. */
  conversation_id: z.string().nullable(),
  /** Shared by every conversation of its agent (Codex's app-server), outside the warm pool's cap. */
  shared: z.boolean(),
  /** A turn runs on it (or waits on the owner's answer): never evicted. */
  busy: z.boolean(),
  /** Its own resident memory (VmRSS), bytes; null when it could not be read. */
  rss_bytes: z.number().int().nullable(),
  /** Its whole process group (it and the tools it runs), bytes; null when it could not be read. */
  group_rss_bytes: z.number().int().nullable(),
  /** When it was last used (ms since epoch) while idle; null while busy or for a shared process. */
  idle_since: z.number().int().nullable(),
});
export type WarmProcessOut = z.infer<typeof WarmProcessOut>;

export const SystemStatsOut = z.object({
  warm_processes: z.array(WarmProcessOut),
  /** COFFER_MAX_WARM_AGENTS: how many per-conversation processes stay warm at most. */
  warm_cap: z.number().int(),
  /** The sum of every warm process's group memory, bytes. */
  warm_rss_bytes: z.number().int(),
  turns_running: z.number().int(),
  /** Live-stream listeners (SSE) across every conversation, and the buses they hold. */
  bus_subscribers: z.number().int(),
  buses: z.number().int(),
  db: z.object({ file_bytes: z.number().int(), wal_bytes: z.number().int(), total_bytes: z.number().int() }),
  /**
   * The daemon process itself: resident memory, V8 heap in use, and open file descriptors
   * (null where /proc is missing). What `npm run bench:soak` samples to find a leak.
   */
  daemon: z.object({ rss_bytes: z.number().int(), heap_used_bytes: z.number().int(), open_fds: z.number().int().nullable() }),
  /**
   * Attachments (issue 25): `count` uploads described (rows), kept as `files` distinct files on
   * disk (the same bytes sent twice are stored once), taking `bytes`.
   */
  attachments: z.object({ count: z.number().int(), files: z.number().int(), bytes: z.number().int() }),
});
export type SystemStatsOut = z.infer<typeof SystemStatsOut>;

export const PrewarmRequest = z
  .object({
    /** An existing conversation of this agent; absent = a draft. */
    conversation_id: z.string().min(1).max(200).optional(),
    /** A draft's working directory and model, as it would be created with. */
    cwd: z.string().max(4096).optional(),
    model: z.string().max(200).optional(),
  })
  .strict();
export type PrewarmRequest = z.infer<typeof PrewarmRequest>;

/**
 * started: a process is starting; warm: one was already; skipped: no room (every warm process
 * busy), settings it cannot start with, or an agent without pre-warm; throttled: asked again too soon.
 */
export const PrewarmState = z.enum(["started", "warm", "skipped", "throttled"]);
export type PrewarmState = z.infer<typeof PrewarmState>;
export const PrewarmOut = z.object({ state: PrewarmState });
export type PrewarmOut = z.infer<typeof PrewarmOut>;
