import type { RetentionSettingsOut, RetentionSettingsPatch } from "@coffer/protocol";
import { useState } from "react";
import { Icon } from "../../ui/icons.js";
import { InlineError } from "../../ui/page-kit.js";
import { plural } from "../../ui/plural.js";

/** What happens to conversations now, in one sentence (the README says the same of the defaults). */
export function retentionSentence({ archive_after_days: a, delete_after_days: d }: RetentionSettingsOut): string {
  const archive = a === null ? "Conversations are never archived by themselves" : `Conversations idle for ${plural(a, "day")} move to the archive`;
  const del = d === null ? "archived ones are kept forever." : `archived ones are deleted ${plural(d, "day")} later.`;
  return `${archive}; ${del}`;
}

/**
 * The retention in force, said plainly, with "Keep conversations forever" one click away while
 * anything is deleted by itself: the default deletes, and the owner should never be surprised.
 */
export function RetentionSummary({ value, onSave }: { value: RetentionSettingsOut; onSave: (patch: RetentionSettingsPatch) => Promise<unknown> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const deletes = value.delete_after_days !== null;
  const keep = async () => {
    setBusy(true);
    setError(null);
    try {
      await onSave({ delete_after_days: null });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="retention-now">
      <div className={`banner ${deletes ? "banner-warning" : "banner-success"}`} role="status" aria-label="Retention now">
        <Icon name={deletes ? "alert" : "check"} />
        <span className="banner-text">{retentionSentence(value)}</span>
        {deletes && (
          <button type="button" className="btn btn-sm btn-primary" disabled={busy} onClick={() => void keep()}>
            Keep conversations forever
          </button>
        )}
      </div>
      <InlineError error={error} />
    </div>
  );
}
