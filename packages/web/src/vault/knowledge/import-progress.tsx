import type { ImportJobOut } from "@coffer/protocol";
import { Icon } from "../../ui/icons.js";

/** An import job: a done/total bar while it runs, then what was imported and each skipped file with its reason. */
export function ImportProgress({ job }: { job: ImportJobOut }) {
  const running = job.status === "running" || job.status === "queued";
  // total is 0 until the scan has finished: the bar stays empty rather than guessing.
  const pct = job.total > 0 ? Math.round((job.done / job.total) * 100) : running ? 0 : 100;
  const label = `Importing ${job.path}`;
  return (
    <div className="card" aria-label="Import progress" role="group">
      <div className="progress-line">
        <span>
          {running ? (
            <span className="status">
              <Icon name="spinner" size={14} /> {job.status === "queued" ? "Waiting for the import before it…" : "Importing…"}
            </span>
          ) : job.status === "done" ? (
            <span className="note-ok">
              <Icon name="check" size={14} /> Import finished
            </span>
          ) : (
            <span className="status status-danger">
              <Icon name="alert" size={14} /> Import failed
            </span>
          )}
        </span>
        <span>
          {job.done} / {job.total || "?"} {job.total === 1 ? "file" : "files"}
        </span>
      </div>
      <div
        className="progress"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={job.total || undefined}
        aria-valuenow={job.total ? job.done : undefined}
        aria-valuetext={`${job.done} of ${job.total || "?"} ${job.total === 1 ? "file" : "files"}`}
      >
        <div className="progress-bar" style={{ width: `${pct}%` }} />
      </div>
      <p role="status" className="field-hint">
        {running
          ? `${job.imported} imported so far`
          : `${job.imported} imported${job.skipped.length ? `, ${job.skipped.length} skipped` : ""}`}
      </p>
      {job.error && (
        <p className="field-error" role="alert">
          {job.error}
        </p>
      )}
      {job.skipped.length > 0 && (
        <ul className="skipped" aria-label="Skipped files">
          {job.skipped.map((s) => (
            <li key={s.filename}>
              <code>{s.filename}</code> — {s.reason}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
