import { z } from "zod";
import { Timestamp } from "../wire/common.js";

/**
 * The morning brief (issue 27): a built-in schedule, off until the owner turns it on, that sends
 * one summary of what happened since the last brief — turns per conversation, open questions,
 * queued work, schedules that ran, each agent's plan-limit windows — to the phone and the page's
 * alert area. Built from Coffer's own records, no model call. Times are in the owner's zone
 * (COFFER_TIME_ZONE); a brief missed while the machine slept is sent once on wake, saying so.
 */

const ClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "a time as HH:MM (24-hour)");

export const BriefTargets = z.object({
  phone: z.boolean().describe("Each running channel's paired owner chat"),
  page: z.boolean().describe("The page's alert area (the conversation-list stream)"),
});
export type BriefTargets = z.infer<typeof BriefTargets>;

/** GET /settings/brief. */
export const BriefSettingsOut = z.object({
  enabled: z.boolean().describe("Off by default"),
  at: ClockTime.describe("When it is sent each day, in time_zone"),
  to: BriefTargets,
  time_zone: z.string().describe("The owner's zone (COFFER_TIME_ZONE); read-only"),
  next_at: Timestamp.nullable().describe("The next brief (null while off)"),
  last_sent_at: Timestamp.nullable(),
});
export type BriefSettingsOut = z.infer<typeof BriefSettingsOut>;

/** PUT /settings/brief: omitted fields stay as they are; it must go somewhere. */
export const BriefSettingsPatch = z
  .object({ enabled: z.boolean(), at: ClockTime, to: BriefTargets.partial().strict() })
  .partial()
  .strict()
  .refine((p) => !p.to || p.to.phone !== false || p.to.page !== false, { message: "the brief must go to the phone, the page or both", path: ["to"] });
export type BriefSettingsPatch = z.infer<typeof BriefSettingsPatch>;

export const DEFAULT_BRIEF = { enabled: false, at: "07:30", to: { phone: true, page: true } } as const;

/** One conversation's line in the brief (the page links it; the phone names its /open number). */
export const BriefConversation = z.object({
  conversation_id: z.string(),
  title: z.string().nullable(),
  finished: z.number().int(),
  failed: z.number().int(),
  stopped: z.number().int(),
  open_number: z.number().int().nullable().describe("Its /open number as /list numbers it (null: not in the first page)"),
});
export type BriefConversation = z.infer<typeof BriefConversation>;

/** POST /settings/brief/send ("Send it now"): the brief as built and where it went. */
export const BriefOut = z.object({
  since: Timestamp,
  at: Timestamp,
  text: z.string().describe("The brief as the phone gets it"),
  quiet: z.boolean().describe("Nothing happened: the text is one line"),
  caught_up: z.boolean().describe("Sent on wake for a time slept through"),
  conversations: z.array(BriefConversation),
  delivered: z.object({ phone_chats: z.number().int(), page: z.boolean() }),
});
export type BriefOut = z.infer<typeof BriefOut>;
