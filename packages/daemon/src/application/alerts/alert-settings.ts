import { ALERT_KINDS, type AlertKinds, type AlertSettingsOut, type AlertSettingsPatch, type AuditActor } from "@coffer/protocol";
import type { AuditSink } from "../credentials/ports.js";
import type { Clock } from "../ports.js";
import type { SettingsStore } from "../retention/ports.js";

const KEY = "alerts";

/** Everything alerts until the owner says otherwise (docs/decisions.md, "Alerts"). */
const ALL_ON: AlertKinds = { turn_finished: true, turn_failed: true, question_asked: true };
export const DEFAULT_ALERT_SETTINGS: AlertSettingsOut = { browser: ALL_ON, telegram: ALL_ON };

/** Which events alert the owner, per surface; one JSON value in the settings store. */
export class AlertSettings {
  constructor(
    private readonly store: SettingsStore,
    private readonly audit: AuditSink,
    private readonly clock: Clock,
  ) {}

  get(): AlertSettingsOut {
    const stored = this.store.get(KEY);
    const o = stored && typeof stored === "object" ? (stored as Record<string, unknown>) : {};
    return { browser: kinds(o.browser, DEFAULT_ALERT_SETTINGS.browser), telegram: kinds(o.telegram, DEFAULT_ALERT_SETTINGS.telegram) };
  }

  update(patch: AlertSettingsPatch, actor: AuditActor = "user"): AlertSettingsOut {
    const before = this.get();
    const next: AlertSettingsOut = {
      browser: { ...before.browser, ...defined(patch.browser) },
      telegram: { ...before.telegram, ...defined(patch.telegram) },
    };
    const now = this.clock.now();
    this.store.set(KEY, next, now);
    this.audit(actor, "alert_settings_changed", { ...next }, now);
    return next;
  }
}

/** A stored value read defensively: anything not a boolean falls back to the default. */
function kinds(stored: unknown, fallback: AlertKinds): AlertKinds {
  const o = stored && typeof stored === "object" ? (stored as Record<string, unknown>) : {};
  const out = { ...fallback };
  for (const k of ALERT_KINDS) if (typeof o[k] === "boolean") out[k] = o[k];
  return out;
}

function defined(patch: Partial<AlertKinds> | undefined): Partial<AlertKinds> {
  return Object.fromEntries(Object.entries(patch ?? {}).filter(([, v]) => v !== undefined));
}
