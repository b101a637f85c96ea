import { SETTINGS_ROUTES, type QuestionSettingsOut } from "@coffer/protocol";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { useApi } from "../api/api-context.js";
import { Field, fieldProps, InlineError, SkeletonRows } from "../ui/page-kit.js";

const key = ["settings", "questions"] as const;

/** Whole minutes as the daemon takes them (0–10080); anything else stays in the box, unsaved. */
function minutes(text: string): number | null {
  const n = Number(text);
  return text.trim() !== "" && Number.isInteger(n) && n >= 0 && n <= 10_080 ? n : null;
}

/**
 * Settings → Alerts → "When the agent waits for you" (issue 27): after how many minutes an
 * open question reaches the phone, and when it is reminded. The page's alert is always at once.
 */
export function QuestionTimings() {
  const api = useApi();
  const client = useQueryClient();
  const settings = useQuery({ queryKey: key, queryFn: () => api.call(SETTINGS_ROUTES.getQuestionSettings) });
  const save = useMutation({
    mutationFn: (body: QuestionSettingsOut) => api.call(SETTINGS_ROUTES.setQuestionSettings, { body }),
    onSuccess: (out) => client.setQueryData(key, out),
  });
  if (settings.isPending) return <SkeletonRows rows={2} label="Loading question settings" />;
  if (!settings.data) return <InlineError error={settings.error} onRetry={() => void settings.refetch()} />;
  return <TimingsForm value={settings.data} saving={save.isPending} error={save.error} saved={save.isSuccess} onSave={(v) => save.mutate(v)} />;
}

function TimingsForm({
  value,
  saving,
  error,
  saved,
  onSave,
}: {
  value: QuestionSettingsOut;
  saving: boolean;
  error: unknown;
  saved: boolean;
  onSave: (value: QuestionSettingsOut) => void;
}) {
  const [phone, setPhone] = useState(String(value.phone_after_minutes));
  const [remind, setRemind] = useState(value.remind_after_minutes === null ? "" : String(value.remind_after_minutes));
  const [never, setNever] = useState(value.remind_after_minutes === null);
  useEffect(() => {
    setPhone(String(value.phone_after_minutes));
    setRemind(value.remind_after_minutes === null ? "" : String(value.remind_after_minutes));
    setNever(value.remind_after_minutes === null);
  }, [value]);
  const phoneMinutes = minutes(phone);
  const remindMinutes = never ? null : minutes(remind);
  const remindBad = !never && (remindMinutes === null || remindMinutes < 1);
  const ready = phoneMinutes !== null && !remindBad;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (ready && !saving) onSave({ phone_after_minutes: phoneMinutes, remind_after_minutes: never ? null : remindMinutes });
  };
  return (
    <form className="card form question-timings" onSubmit={submit} aria-label="When the agent waits for you">
      <div className="form-row">
        <Field label="Tell my phone after (minutes)" hint="0 sends it at once." error={phoneMinutes === null ? "Whole minutes, 0 or more." : null}>
          {(ids) => <input {...fieldProps(ids, phoneMinutes === null)} className="input" inputMode="numeric" value={phone} onChange={(e) => setPhone(e.target.value)} />}
        </Field>
        <Field label="Remind me after (minutes)" hint="On the page and the phone, if still unanswered." error={remindBad ? "Whole minutes, 1 or more." : null}>
          {(ids) => (
            <input {...fieldProps(ids, remindBad)} className="input" inputMode="numeric" value={never ? "" : remind} disabled={never} onChange={(e) => setRemind(e.target.value)} />
          )}
        </Field>
        <label className="check">
          <input type="checkbox" checked={never} onChange={(e) => setNever(e.target.checked)} />
          Never remind
        </label>
      </div>
      <InlineError error={error} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={!ready || saving}>
          {saving ? "Saving…" : "Save"}
        </button>
        {saved && !saving && (
          <span className="note-ok" role="status">
            Saved.
          </span>
        )}
      </div>
    </form>
  );
}
