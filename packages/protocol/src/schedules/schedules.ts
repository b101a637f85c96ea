import { z } from "zod";
import { AgentKey, ConversationId, Timestamp } from "../wire/common.js";

/**
 * Recurring prompts (issue 27): a prompt sent on a timetable, in the owner's time zone
 * (COFFER_TIME_ZONE), either into one conversation (a heartbeat) or into a fresh conversation
 * each run. Missed runs while the machine slept run once on wake, not N times.
 */

/** HH:MM, 24-hour. */
const ClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "a time as HH:MM (24-hour)");

export const SchedulePreset = z.discriminatedUnion("preset", [
  z.object({ preset: z.literal("hourly") }),
  z.object({ preset: z.literal("daily_at"), at: ClockTime }),
  z.object({ preset: z.literal("weekdays_at"), at: ClockTime.describe("Monday to Friday at this time") }),
]);
export type SchedulePreset = z.infer<typeof SchedulePreset>;

export const ScheduleWhen = z.union([
  z.object({ cron: z.string().min(1).max(200).describe("A cron expression (5 fields, or 6 with seconds), read in the owner's time zone") }).strict(),
  SchedulePreset,
]);
export type ScheduleWhen = z.infer<typeof ScheduleWhen>;

export const ScheduleTarget = z.union([
  z.object({ conversation_id: ConversationId.describe("A heartbeat: each run is sent into this conversation, through its queue") }).strict(),
  z
    .object({
      fresh: z
        .object({
          agent: AgentKey,
          cwd: z.string().min(1).max(4096).describe("Absolute folder the agent works in"),
          model: z.string().min(1).max(200).optional(),
        })
        .strict(),
    })
    .strict(),
]);
export type ScheduleTarget = z.infer<typeof ScheduleTarget>;

export const ScheduleRunStatus = z.enum(["sent", "queued", "waiting", "failed"]);
export type ScheduleRunStatus = z.infer<typeof ScheduleRunStatus>;

export const ScheduleLastRun = z.object({
  at: Timestamp,
  conversation_id: ConversationId.nullable(),
  status: ScheduleRunStatus.describe("sent: its turn started; queued: it waits behind a running turn; waiting: the agent's known plan limit is reached, it is sent at the reset (message says when); failed: it could not be sent (message says why)"),
  caught_up: z.number().int().min(1).optional().describe("Set on a catch-up run after a sleep: how many due times were missed (they ran once)"),
  message: z.string().optional(),
});
export type ScheduleLastRun = z.infer<typeof ScheduleLastRun>;

export const ScheduleOut = z.object({
  id: z.string(),
  name: z.string(),
  prompt: z.string(),
  when: ScheduleWhen,
  target: ScheduleTarget,
  paused: z.boolean(),
  time_zone: z.string().describe("The zone its times are read in (the daemon's COFFER_TIME_ZONE)"),
  next_run_at: Timestamp.nullable().describe("When it runs next; null while paused"),
  last_run: ScheduleLastRun.nullable(),
  created_at: Timestamp,
});
export type ScheduleOut = z.infer<typeof ScheduleOut>;

export const ScheduleListOut = z.object({ schedules: z.array(ScheduleOut) });
export type ScheduleListOut = z.infer<typeof ScheduleListOut>;

export const ScheduleCreate = z
  .object({
    name: z.string().min(1).max(200),
    prompt: z.string().min(1).max(32768),
    when: ScheduleWhen,
    target: ScheduleTarget,
    paused: z.boolean().optional(),
  })
  .strict();
export type ScheduleCreate = z.infer<typeof ScheduleCreate>;

export const SchedulePatch = z
  .object({
    name: z.string().min(1).max(200).optional(),
    prompt: z.string().min(1).max(32768).optional(),
    when: ScheduleWhen.optional(),
    target: ScheduleTarget.optional(),
    paused: z.boolean().optional(),
  })
  .strict();
export type SchedulePatch = z.infer<typeof SchedulePatch>;

export const ScheduleRunOut = z.object({
  conversation_id: ConversationId.nullable().describe("Where it went; null while a fresh run waits for a plan limit's reset"),
  queued: z.boolean().describe("true: it waits (in the conversation's queue behind a running turn, or for a plan limit's reset)"),
  waiting_until: Timestamp.optional().describe("Set when the agent's known plan limit holds it: sent at this reset"),
});
export type ScheduleRunOut = z.infer<typeof ScheduleRunOut>;
