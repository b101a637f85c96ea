import { z } from "zod";

// The owner's alert settings (Settings → Alerts). What an alert is (its kinds, the event on the
// conversation-list stream, its headline) is the Chat's: chat/alert-events.ts.

/** Which kinds alert on one surface. */
export const AlertKinds = z.object({
  turn_finished: z.boolean(),
  turn_failed: z.boolean(),
  question_asked: z.boolean(),
});
export type AlertKinds = z.infer<typeof AlertKinds>;

/**
 * Per surface: `browser` (a hidden page raises a notification and marks its tab) and
 * `telegram` (a short message to the paired owner, for conversations not bound to their chat).
 */
export const AlertSettingsOut = z.object({
  browser: AlertKinds,
  telegram: AlertKinds,
});
export type AlertSettingsOut = z.infer<typeof AlertSettingsOut>;

/** Omitted surfaces and kinds stay as they are. */
export const AlertSettingsPatch = z.object({
  browser: AlertKinds.partial().optional(),
  telegram: AlertKinds.partial().optional(),
});
export type AlertSettingsPatch = z.infer<typeof AlertSettingsPatch>;
