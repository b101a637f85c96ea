import { DEFAULT_QUESTION_SETTINGS, QuestionSettingsOut, type AuditActor, type QuestionSettingsPatch } from "@coffer/protocol";
import type { AuditSink } from "../credentials/ports.js";
import type { Clock } from "../ports.js";
import type { SettingsStore } from "../retention/ports.js";

export interface QuestionSettingsDeps {
  readonly store: SettingsStore;
  readonly audit: AuditSink;
  readonly clock: Clock;
}

/** When an open question reaches the phone and is reminded (issue 27); one JSON value under "questions". */
export class QuestionSettings {
  constructor(private readonly deps: QuestionSettingsDeps) {}

  /** Field by field: a stored value that no longer fits the shape (hand-edited, older) falls back to its default. */
  get(): QuestionSettingsOut {
    const raw: unknown = this.deps.store.get("questions");
    const saved = (raw && typeof raw === "object" ? raw : {}) as Partial<Record<keyof QuestionSettingsOut, unknown>>;
    const phone = QuestionSettingsOut.shape.phone_after_minutes.safeParse(saved.phone_after_minutes);
    const remind = QuestionSettingsOut.shape.remind_after_minutes.safeParse(saved.remind_after_minutes);
    return {
      phone_after_minutes: phone.success ? phone.data : DEFAULT_QUESTION_SETTINGS.phone_after_minutes,
      remind_after_minutes: remind.success && "remind_after_minutes" in saved ? remind.data : DEFAULT_QUESTION_SETTINGS.remind_after_minutes,
    };
  }

  update(patch: QuestionSettingsPatch, actor: AuditActor = "user"): QuestionSettingsOut {
    const next: QuestionSettingsOut = { ...this.get(), ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) };
    const at = this.deps.clock.now();
    this.deps.store.set("questions", next, at);
    this.deps.audit(actor, "question_settings_changed", { ...next }, at);
    return next;
  }
}
