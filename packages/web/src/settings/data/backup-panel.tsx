import type { BackupOut, BackupStatusOut } from "@coffer/protocol";
import { useState } from "react";
import { CopyButton } from "../../ui/copy-button.js";
import { Icon } from "../../ui/icons.js";
import { InlineError, Time } from "../../ui/page-kit.js";
import { plural } from "../../ui/plural.js";

/** 9 KB, 12.3 MB, 1.2 GB. */
export function fileSize(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The schedule in one phrase: "every 24 hours, keeping the newest 7". */
export function scheduleText(s: Pick<BackupStatusOut, "every_hours" | "keep">): string {
  const keep = s.keep === 0 ? "keeping them all" : `keeping the newest ${s.keep}`;
  return s.every_hours > 0 ? `every ${plural(s.every_hours, "hour")}, ${keep}` : `no schedule (COFFER_BACKUP_EVERY_HOURS=0), ${keep}`;
}

/**
 * Settings → Data → Backups: the last snapshot (when, where, size), the next one, the folder,
 * and "Back up now" with its progress and result. A snapshot holds the credentials key, so the
 * panel says what that means for where the folder lives (README, "Backups").
 */
export function BackupPanel({ status, onBackUp }: { status: BackupStatusOut; onBackUp: () => Promise<BackupOut> }) {
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<BackupOut | null>(null);
  const [error, setError] = useState<unknown>(null);
  const running = busy || status.running;
  const backUp = async () => {
    setBusy(true);
    setError(null);
    setMade(null);
    try {
      setMade(await onBackUp());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const last = status.last;
  return (
    <div className="backup-panel card">
      <dl className="backup-facts" aria-label="Snapshots">
        <div className="backup-fact">
          <dt>Last snapshot</dt>
          <dd>
            {last ? (
              <>
                <span>
                  <Time ts={iso(last.created_at)} /> · {fileSize(last.size_bytes)}
                  {!last.key_included && " · without the credentials key"}
                </span>
                <span className="backup-path">
                  <span className="mono">{last.path}</span>
                  <CopyButton text={last.path} label="Copy the snapshot's path" compact />
                </span>
              </>
            ) : (
              <span className="backup-none">None yet</span>
            )}
          </dd>
        </div>
        <div className="backup-fact">
          <dt>Next snapshot</dt>
          <dd>{status.next_due_at !== null ? <Time ts={iso(status.next_due_at)} /> : <span className="backup-none">Not scheduled</span>}</dd>
        </div>
        <div className="backup-fact">
          <dt>Folder</dt>
          <dd>
            <span className="backup-path">
              <span className="mono">{status.folder}</span>
            </span>
            <span className="field-hint">{scheduleText(status)[0]!.toUpperCase() + scheduleText(status).slice(1)}.</span>
          </dd>
        </div>
      </dl>
      {status.last_error && (
        <div className="banner banner-warning" role="status" aria-label="Last scheduled snapshot">
          <Icon name="alert" />
          <span className="banner-text">The last scheduled snapshot failed: {status.last_error.message}</span>
        </div>
      )}
      <div className="backup-actions">
        <button type="button" className="btn btn-primary" disabled={running} aria-busy={running || undefined} onClick={() => void backUp()}>
          <Icon name={running ? "spinner" : "download"} size={14} />
          {running ? "Backing up…" : "Back up now"}
        </button>
        {made && (
          <span className="backup-made" role="status">
            <Icon name="check" size={14} /> Backed up ({fileSize(made.size_bytes)}).
          </span>
        )}
      </div>
      <InlineError error={error} />
    </div>
  );
}
