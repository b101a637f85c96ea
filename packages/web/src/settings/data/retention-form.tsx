import type { RetentionSettingsOut, RetentionSettingsPatch } from "@coffer/protocol";
import { Fragment, useEffect, useId, useState, type FormEvent } from "react";
import "./data.css";
import { InlineError } from "../../ui/page-kit.js";

type Key = keyof RetentionSettingsOut;

interface Window {
  forever: boolean;
  days: string;
}

const toWindow = (v: number | null, fallback: number): Window => ({ forever: v === null, days: String(v ?? fallback) });

function parseDays(w: Window): { value: number | null; error: string | null } {
  if (w.forever) return { value: null, error: null };
  const n = Number(w.days);
  if (!/^\d+$/.test(w.days.trim()) || n < 1 || n > 36_500) return { value: null, error: "A whole number of days from 1 to 36,500." };
  return { value: n, error: null };
}

const WINDOWS: { key: Key; label: string; hint: string; fallback: number }[] = [
  { key: "archive_after_days", label: "Archive conversations after", hint: "days with no new message", fallback: 7 },
  { key: "delete_after_days", label: "Delete archived conversations after", hint: "days in the archive", fallback: 30 },
];

/** The two retention windows; only the ones the owner changed are sent (left-out fields stay). */
export function RetentionForm({ value, onSave }: { value: RetentionSettingsOut; onSave: (patch: RetentionSettingsPatch) => Promise<unknown> }) {
  const [draft, setDraft] = useState<Record<Key, Window>>(() => ({
    archive_after_days: toWindow(value.archive_after_days, 7),
    delete_after_days: toWindow(value.delete_after_days, 30),
  }));
  const formId = useId();
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setDraft({ archive_after_days: toWindow(value.archive_after_days, 7), delete_after_days: toWindow(value.delete_after_days, 30) });
  }, [value.archive_after_days, value.delete_after_days]);
  const parsed = { archive_after_days: parseDays(draft.archive_after_days), delete_after_days: parseDays(draft.delete_after_days) };
  const patch: RetentionSettingsPatch = {};
  for (const { key } of WINDOWS) if (!parsed[key].error && parsed[key].value !== value[key]) patch[key] = parsed[key].value;
  const invalid = WINDOWS.some(({ key }) => parsed[key].error);
  const dirty = Object.keys(patch).length > 0;
  const set = (key: Key, w: Partial<Window>) => {
    setSaved(false);
    setDraft((d) => ({ ...d, [key]: { ...d[key], ...w } }));
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (invalid || !dirty) return;
    setBusy(true);
    setError(null);
    try {
      await onSave(patch);
      setSaved(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card form" onSubmit={submit} aria-label="Conversation retention">
      {/* One grid for both windows, so the inputs and the Keep forever boxes line up whatever the label lengths. */}
      <div className="retention-grid">
        {WINDOWS.map(({ key, label, hint }) => {
          const id = `${formId}-${key}`;
          const err = parsed[key].error;
          return (
            <Fragment key={key}>
              <div className="retention-label">
                <label htmlFor={id} className="field-label">
                  {label}
                </label>
                <span id={`${id}-hint`} className="field-hint">
                  {draft[key].forever ? "Kept forever" : hint}
                </span>
              </div>
              <div className="retention-input">
                <input
                  id={id}
                  aria-describedby={`${id}-hint${err ? ` ${id}-error` : ""}`}
                  aria-invalid={err !== null || undefined}
                  className="input"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={36_500}
                  value={draft[key].forever ? "" : draft[key].days}
                  disabled={draft[key].forever}
                  onChange={(e) => set(key, { days: e.target.value })}
                />
                <span className="field-hint">days</span>
              </div>
              <label className="check">
                <input type="checkbox" checked={draft[key].forever} onChange={(e) => set(key, { forever: e.target.checked })} />
                Keep forever
                <span className="sr-only"> ({label.toLowerCase()})</span>
              </label>
              {err && (
                <span id={`${id}-error`} className="field-error retention-error">
                  {err}
                </span>
              )}
            </Fragment>
          );
        })}
      </div>
      <InlineError error={error} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={invalid || !dirty || busy}>
          Save
        </button>
        {saved && !dirty && (
          <span className="note-ok" role="status">
            Saved.
          </span>
        )}
      </div>
    </form>
  );
}
