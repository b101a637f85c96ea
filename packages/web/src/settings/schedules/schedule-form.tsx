import type { AgentOut, ScheduleOut, ScheduleTarget, ScheduleWhen } from "@coffer/protocol";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError } from "../../api/client.js";
import { useSettingsApi } from "../../api/page-apis.js";
import { Field, fieldProps, InlineError } from "../../ui/page-kit.js";

type Kind = "daily_at" | "weekdays_at" | "hourly" | "cron";

interface Props {
  readonly schedule?: ScheduleOut;
  readonly agents: readonly AgentOut[];
  readonly conversations: readonly { id: string; title: string }[];
  readonly zone: string | null;
  readonly onDone: (saved: ScheduleOut | null) => void;
}

function kindOf(w: ScheduleWhen | undefined): Kind {
  if (!w) return "daily_at";
  return "cron" in w ? "cron" : w.preset;
}

/**
 * Add a recurring prompt or change one. The daemon checks the timetable, the conversation and the
 * agent's folder before storing; a refusal names the field (SCHEDULE_INVALID details.field), and
 * every field stays as typed.
 */
export function ScheduleForm({ schedule: s, agents, conversations, zone, onDone }: Props) {
  const settings = useSettingsApi();
  const [name, setName] = useState(s?.name ?? "");
  const [prompt, setPrompt] = useState(s?.prompt ?? "");
  const [kind, setKind] = useState<Kind>(kindOf(s?.when));
  const [at, setAt] = useState(s && !("cron" in s.when) && s.when.preset !== "hourly" ? s.when.at : "07:00");
  const [cron, setCron] = useState(s && "cron" in s.when ? s.when.cron : "0 7 * * 1-5");
  // The lists may still be loading when the form opens: until the owner picks, the defaults
  // follow them as they arrive (a form opened early must not be stuck on "fresh" with no agent).
  const [freshChoice, setFresh] = useState<boolean | null>(s ? "fresh" in s.target : null);
  const fresh = freshChoice ?? conversations.length === 0;
  const [pickedConversation, setConversation] = useState(s && "conversation_id" in s.target ? s.target.conversation_id : "");
  const conversation = pickedConversation || (conversations[0]?.id ?? "");
  const [pickedAgent, setAgent] = useState(s && "fresh" in s.target ? s.target.fresh.agent : "");
  const agent = pickedAgent || (agents.find((a) => a.available)?.agent_key ?? "");
  const [cwd, setCwd] = useState(s && "fresh" in s.target ? s.target.fresh.cwd : "");
  const [model, setModel] = useState(s && "fresh" in s.target ? (s.target.fresh.model ?? "") : "");
  const when: ScheduleWhen = kind === "cron" ? { cron: cron.trim() } : kind === "hourly" ? { preset: "hourly" } : { preset: kind, at };
  const target: ScheduleTarget = fresh ? { fresh: { agent, cwd: cwd.trim(), ...(model.trim() ? { model: model.trim() } : {}) } } : { conversation_id: conversation };
  const body = { name: name.trim(), prompt, when, target };
  const save = useMutation({
    mutationFn: () => (s ? settings.updateSchedule(s.id, body) : settings.createSchedule(body)),
    onSuccess: (saved) => onDone(saved),
  });
  const blamed = save.error instanceof ApiError ? String(save.error.details?.field ?? "") : "";
  const cwdError = fresh && cwd.trim() && !cwd.trim().startsWith("/") ? "An absolute path, e.g. /home/me/projects." : null;
  const ready = name.trim() && prompt.trim() && (fresh ? agent && cwd.trim() && !cwdError : conversation) && (kind !== "cron" || cron.trim());
  // Enter in a field submits; a second press while saving does nothing.
  function submit(e: FormEvent): void {
    e.preventDefault();
    if (!ready || save.isPending) return;
    save.mutate();
  }
  return (
    <form className="card form" onSubmit={submit} aria-label={s ? `Edit ${s.name}` : "Add schedule"}>
      <div className="form-row">
        <Field label="Name" hint="Yours to recognise it by, e.g. Morning triage.">
          {(ids) => <input {...fieldProps(ids)} className="input" value={name} required maxLength={200} autoFocus={!s} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="When" hint={zone ? `In ${zone} (COFFER_TIME_ZONE).` : "In the daemon's time zone."}>
          {(ids) => (
            <select {...fieldProps(ids)} className="select" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
              <option value="daily_at">Every day at…</option>
              <option value="weekdays_at">Weekdays at…</option>
              <option value="hourly">Every hour</option>
              <option value="cron">Cron expression</option>
            </select>
          )}
        </Field>
        {(kind === "daily_at" || kind === "weekdays_at") && (
          <Field label="Time">
            {(ids) => <input {...fieldProps(ids)} type="time" className="input" value={at} required onChange={(e) => setAt(e.target.value)} />}
          </Field>
        )}
        {kind === "cron" && (
          <Field label="Cron" hint="Minute hour day month weekday." error={blamed === "when" ? "Not a cron expression the daemon reads." : null}>
            {(ids) => <input {...fieldProps(ids, blamed === "when")} className="input mono" value={cron} spellCheck={false} onChange={(e) => setCron(e.target.value)} />}
          </Field>
        )}
      </div>
      <Field label="Prompt" hint="Sent as you would type it, each run.">
        {(ids) => <textarea {...fieldProps(ids)} className="input" rows={3} value={prompt} required onChange={(e) => setPrompt(e.target.value)} />}
      </Field>
      <fieldset className="schedule-target">
        <legend className="field-label">Send into</legend>
        <label className="radio">
          <input type="radio" name="target" checked={!fresh} disabled={conversations.length === 0} onChange={() => setFresh(false)} /> One conversation (a heartbeat: queued behind a running turn)
        </label>
        <label className="radio">
          <input type="radio" name="target" checked={fresh} onChange={() => setFresh(true)} /> A fresh conversation each run
        </label>
      </fieldset>
      {!fresh ? (
        <Field label="Conversation">
          {(ids) => (
            <select {...fieldProps(ids, blamed === "target.conversation_id")} className="select" value={conversation} onChange={(e) => setConversation(e.target.value)}>
              {conversations.map((c) => <option key={c.id} value={c.id} label={c.title} />)}
            </select>
          )}
        </Field>
      ) : (
        <div className="form-row">
          <Field label="Agent">
            {(ids) => (
              <select {...fieldProps(ids, blamed === "target.fresh.agent")} className="select" value={agent} onChange={(e) => setAgent(e.target.value)}>
                {agents.map((a) => <option key={a.agent_key} value={a.agent_key} disabled={!a.available} label={a.display_name} />)}
              </select>
            )}
          </Field>
          <Field label="Folder" error={cwdError}>
            {(ids) => <input {...fieldProps(ids, cwdError !== null || blamed === "target.fresh.cwd")} className="input mono" value={cwd} placeholder="/home/me/projects" spellCheck={false} onChange={(e) => setCwd(e.target.value)} />}
          </Field>
          <Field label="Model" hint="Optional.">
            {(ids) => <input {...fieldProps(ids, blamed === "target.fresh.model")} className="input mono" value={model} placeholder="default" spellCheck={false} onChange={(e) => setModel(e.target.value)} />}
          </Field>
        </div>
      )}
      <InlineError error={save.error} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={!ready || save.isPending}>
          {save.isPending ? "Saving…" : s ? "Save schedule" : "Add schedule"}
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
