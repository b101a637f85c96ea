import { z } from "zod";

// How an agent's unanswered question finds the owner (issue 27): the page's alert is raised at
// once; these say when the phone hears of it and when it is reminded. Never auto-answered.

const minutes = z.number().int().min(0).max(10_080);

/** The owner's escalation settings for open questions (GET /settings/questions). */
export const QuestionSettingsOut = z.object({
  phone_after_minutes: minutes.describe("Minutes after the question opened before the phone hears of it (0 = at once)."),
  remind_after_minutes: minutes
    .min(1)
    .nullable()
    .describe("Minutes after the question opened before the owner is reminded on the page and the phone; null = never."),
});
export type QuestionSettingsOut = z.infer<typeof QuestionSettingsOut>;

/** Omitted fields stay as they are. */
export const QuestionSettingsPatch = QuestionSettingsOut.partial();
export type QuestionSettingsPatch = z.infer<typeof QuestionSettingsPatch>;

export const DEFAULT_QUESTION_SETTINGS: QuestionSettingsOut = { phone_after_minutes: 5, remind_after_minutes: 60 };
