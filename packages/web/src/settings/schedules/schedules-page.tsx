import type { ScheduleOut } from "@coffer/protocol";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useSettingsApi } from "../../api/page-apis.js";
import { useAgents, useConversationList } from "../../api/queries.js";
import { Icon } from "../../ui/icons.js";
import { EmptyState, InlineError, Page, Section, SkeletonRows } from "../../ui/page-kit.js";
import { useToast } from "../../ui/toasts.js";
import { BriefSection } from "./brief-section.js";
import { ScheduleForm } from "./schedule-form.js";
import { lastRunWords, runTime, targetWords, whenWords } from "./schedule-words.js";
import "./schedules.css";

export const scheduleKeys = { all: ["settings", "schedules"] as const };

/** Runs happen while the page is open too: re-read the list now and then (next and last run). */
const REFRESH_MS = 15_000;

/** Settings → Schedules: recurring prompts, listed, added, edited, paused, run now and deleted. */
export function SchedulesPage() {
  // Which form is open: the new schedule's, or the id of the one being edited.
  const [open, setOpen] = useState<{ new: true } | { id: string } | null>(null);
  const adding = open !== null && "new" in open;
  const editing = open !== null && "id" in open ? open.id : null;
  const setAdding = (on: boolean) => setOpen(on ? { new: true } : null);
  const settings = useSettingsApi();
  const schedules = useQuery({ queryKey: scheduleKeys.all, queryFn: settings.schedules, refetchInterval: REFRESH_MS });
  const client = useQueryClient();
  const toast = useToast();
  const agents = useAgents();
  const convs = useConversationList(false, "");
  const conversations = (convs.data?.pages ?? []).flatMap((p) => p.conversations).map((c) => ({ id: c.id, title: c.title }));
  const titleOf = (id: string) => conversations.find((c) => c.id === id)?.title;
  const invalidate = () => client.invalidateQueries({ queryKey: scheduleKeys.all });
  const fail = (err: Error) => toast({ text: err.message, tone: "error" });
  const pause = useMutation({ mutationFn: (s: ScheduleOut) => settings.updateSchedule(s.id, { paused: !s.paused }), onError: fail, onSettled: invalidate });
  const run = useMutation({
    mutationFn: (s: ScheduleOut) => settings.runSchedule(s.id),
    onSuccess: (out, s) => toast({ text: out.waiting_until ? `'${s.name}' waits for the plan limit's reset` : out.queued ? `'${s.name}' queued behind the running turn` : `'${s.name}' sent` }),
    onError: fail,
    onSettled: invalidate,
  });
  const remove = useMutation({ mutationFn: (s: ScheduleOut) => settings.deleteSchedule(s.id), onSuccess: (_, s) => toast({ text: `Deleted schedule '${s.name}'` }), onError: fail, onSettled: invalidate });
  const list = schedules.data?.schedules ?? [];
  const formProps = { agents: agents.data?.agents ?? [], conversations, zone: list[0]?.time_zone ?? null };
  const formReady = agents.isSuccess && convs.isSuccess;
  const done = (saved: ScheduleOut | null) => {
    setOpen(null);
    if (saved) void invalidate();
  };
  return (
    <Page
      title="Schedules"
      actions={
        <button type="button" className="btn btn-primary" aria-expanded={adding} disabled={!formReady} onClick={() => setAdding(true)}>
          <Icon name="plus" /> Add schedule
        </button>
      }
    >
      <p className="page-lead">
        Prompts sent on a timetable, even while you sleep: into one conversation through its queue, or into a fresh conversation each run. A machine that slept through several runs runs once on wake, and says so.
      </p>
      <InlineError error={agents.error ?? convs.error} onRetry={() => void Promise.all([agents.refetch(), convs.refetch()])} />
      {adding && formReady && (
        <Section title="New schedule">
          <ScheduleForm {...formProps} onDone={done} />
        </Section>
      )}
      <Section title={schedules.data ? `Schedules · ${list.length}` : "Schedules"}>
        {schedules.isPending && <SkeletonRows label="Loading schedules" />}
        {schedules.isError && <InlineError error={schedules.error} onRetry={() => void schedules.refetch()} />}
        {schedules.isSuccess && list.length === 0 && !adding && (
          <EmptyState action={formReady && <button type="button" className="btn" onClick={() => setAdding(true)}>Add schedule</button>}>
            No schedules yet. A morning triage, a nightly check, a heartbeat every hour: add one here or with `coffer schedule add`.
          </EmptyState>
        )}
        <ul className="schedule-list" aria-label="Schedules">
          {list.map((s) => (
            <li key={s.id} className={editing === s.id && formReady ? undefined : "card schedule-card"} aria-label={s.name}>
              {editing === s.id && formReady ? (
                <ScheduleForm {...formProps} schedule={s} onDone={done} />
              ) : (
                <ScheduleCard
                  schedule={s}
                  target={targetWords(s.target, titleOf)}
                  onPause={() => pause.mutate(s)}
                  onRun={() => run.mutate(s)}
                  onEdit={formReady ? () => setOpen({ id: s.id }) : null}
                  onDelete={() => remove.mutate(s)}
                />
              )}
            </li>
          ))}
        </ul>
      </Section>
      <BriefSection />
    </Page>
  );
}

interface CardProps {
  readonly schedule: ScheduleOut;
  readonly target: string;
  readonly onPause: () => void;
  readonly onRun: () => void;
  readonly onEdit: (() => void) | null;
  readonly onDelete: () => void;
}

/** One schedule: its timetable and target, next and last run, and what can be done with it. */
function ScheduleCard({ schedule: s, target, onPause, onRun, onEdit, onDelete }: CardProps) {
  return (
    <>
      <div className="schedule-head">
        <Icon name="clock" />
        <strong className="schedule-name">{s.name}</strong>
        <span className={`schedule-state ${s.paused ? "" : "schedule-state-active"}`}>{s.paused ? "Paused" : "Active"}</span>
      </div>
      <p className="schedule-line">
        {whenWords(s.when)} · {s.time_zone} · {target}
      </p>
      <p className="schedule-prompt">{s.prompt}</p>
      <dl className="schedule-runs">
        <dt>Next run</dt>
        <dd>{s.paused ? "—" : runTime(s.next_run_at, s.time_zone)}</dd>
        <dt>Last run</dt>
        <dd>{s.last_run ? `${runTime(s.last_run.at, s.time_zone)}, ${lastRunWords(s)}` : "never"}</dd>
      </dl>
      <div className="schedule-actions">
        <button type="button" className="btn btn-sm" onClick={onPause}>
          {s.paused ? "Resume" : "Pause"}
        </button>
        <button type="button" className="btn btn-sm" onClick={onRun}>
          Run now
        </button>
        <button type="button" className="btn btn-sm" disabled={!onEdit} onClick={onEdit ?? undefined}>
          Edit
        </button>
        <button type="button" className="btn btn-sm" onClick={onDelete}>
          Delete
        </button>
      </div>
    </>
  );
}
