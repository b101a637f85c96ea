import type { BriefSettingsPatch } from "@coffer/protocol";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSettingsApi } from "../../api/page-apis.js";
import { InlineError, Section } from "../../ui/page-kit.js";
import { useToast } from "../../ui/toasts.js";
import { runTime } from "./schedule-words.js";

const briefKey = ["settings", "brief"] as const;

/**
 * Settings → Schedules → Morning brief (issue 27): a built-in schedule, off by default — one
 * summary of the night to the phone and this page's alerts, at a time in the owner's zone.
 */
export function BriefSection() {
  const settings = useSettingsApi();
  const client = useQueryClient();
  const toast = useToast();
  const brief = useQuery({ queryKey: briefKey, queryFn: settings.brief });
  const fail = (err: Error) => toast({ text: err.message, tone: "error" });
  const save = useMutation({ mutationFn: (patch: BriefSettingsPatch) => settings.setBrief(patch), onSuccess: (out) => client.setQueryData(briefKey, out), onError: fail });
  const send = useMutation({
    mutationFn: settings.sendBrief,
    onSuccess: (out) => toast({ text: out.delivered.phone_chats || out.delivered.page ? "Brief sent" : "Brief built, but it goes nowhere: pair a phone or turn on the page" }),
    onError: fail,
    onSettled: () => client.invalidateQueries({ queryKey: briefKey }),
  });
  const b = brief.data;
  return (
    <Section title="Morning brief">
      <InlineError error={brief.error} onRetry={() => void brief.refetch()} />
      {b && (
        <div className="brief-settings" aria-label="Morning brief">
          <label className="brief-row">
            <input type="checkbox" checked={b.enabled} disabled={save.isPending} onChange={(e) => save.mutate({ enabled: e.target.checked })} /> Send a brief each day
          </label>
          <label className="brief-row">
            At{" "}
            <input type="time" value={b.at} disabled={save.isPending} onChange={(e) => e.target.value && save.mutate({ at: e.target.value })} /> <span className="muted">{b.time_zone}</span>
          </label>
          <fieldset className="brief-row">
            <legend>To</legend>
            <label>
              <input type="checkbox" checked={b.to.phone} disabled={save.isPending || (b.to.phone && !b.to.page)} onChange={(e) => save.mutate({ to: { phone: e.target.checked } })} /> Phone
            </label>{" "}
            <label>
              <input type="checkbox" checked={b.to.page} disabled={save.isPending || (b.to.page && !b.to.phone)} onChange={(e) => save.mutate({ to: { page: e.target.checked } })} /> This page's alerts
            </label>
          </fieldset>
          <p className="muted">
            {b.next_at ? `Next: ${runTime(b.next_at, b.time_zone)}.` : "Off."} {b.last_sent_at ? `Last: ${runTime(b.last_sent_at, b.time_zone)}.` : ""} A brief due while the machine slept is sent once on wake.
          </p>
          <button type="button" className="btn" disabled={send.isPending} onClick={() => send.mutate()}>
            Send it now
          </button>
        </div>
      )}
    </Section>
  );
}
