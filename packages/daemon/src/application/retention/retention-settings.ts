import type { AuditActor, RetentionSettingsOut, RetentionSettingsPatch } from "@coffer/protocol";
import type { AuditSink } from "../credentials/ports.js";
import type { Clock } from "../ports.js";
import type { SettingsStore } from "./ports.js";

/** Retention defaults: archive after 7 idle days, delete 30 days after archiving (README). */
export const DEFAULT_ARCHIVE_AFTER_DAYS = 7;
export const DEFAULT_DELETE_AFTER_DAYS = 30;

const ARCHIVE_KEY = "retention.archive_after_days";
const DELETE_KEY = "retention.delete_after_days";

/** The two retention windows; null = keep forever (that stage is off). */
export class RetentionSettings {
  constructor(
    private readonly store: SettingsStore,
    private readonly audit: AuditSink,
    private readonly clock: Clock,
  ) {}

  get(): RetentionSettingsOut {
    return {
      archive_after_days: days(this.store.get(ARCHIVE_KEY), DEFAULT_ARCHIVE_AFTER_DAYS),
      delete_after_days: days(this.store.get(DELETE_KEY), DEFAULT_DELETE_AFTER_DAYS),
    };
  }

  update(patch: RetentionSettingsPatch, actor: AuditActor = "user"): RetentionSettingsOut {
    const now = this.clock.now();
    if (patch.archive_after_days !== undefined) this.store.set(ARCHIVE_KEY, patch.archive_after_days, now);
    if (patch.delete_after_days !== undefined) this.store.set(DELETE_KEY, patch.delete_after_days, now);
    const next = this.get();
    this.audit(actor, "retention_settings_changed", { ...next }, now);
    return next;
  }
}

function days(stored: unknown, fallback: number): number | null {
  if (stored === undefined) return fallback;
  return typeof stored === "number" && Number.isInteger(stored) && stored > 0 ? stored : null;
}
