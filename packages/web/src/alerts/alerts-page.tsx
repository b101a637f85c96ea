import { ALERT_KINDS, SETTINGS_ROUTES, type AlertKind, type AlertSettingsOut, type AlertSettingsPatch } from "@coffer/protocol";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { useApi } from "../api/api-context.js";
import { useSettingsApi } from "../api/page-apis.js";
import { channelKeys } from "../settings/channels/channels-page.js";
import { InlineError, Page, Section, SkeletonRows, StatusDot } from "../ui/page-kit.js";
import { QuestionTimings } from "./question-timings.js";
import { notificationState, notificationsSwitchedOn, requestNotifications, switchNotifications, type NotificationState } from "./browser-notifications.js";
import "./alerts.css";

const key = ["settings", "alerts"] as const;

const EVENTS: Record<AlertKind, { label: string; hint: string }> = {
  turn_finished: { label: "A turn finished", hint: "the agent's reply is complete" },
  turn_failed: { label: "A turn failed", hint: "timed out, model unreachable, plan limit, …" },
  question_asked: { label: "The agent asks you", hint: "it waits for your answer" },
};
const SURFACES = [
  { key: "browser", label: "Browser" },
  { key: "telegram", label: "Telegram" },
] as const;
type Surface = (typeof SURFACES)[number];

/** Settings → Alerts: permission for this browser, and which events alert on which surface. */
export function AlertsPage() {
  const api = useApi();
  const client = useQueryClient();
  const settings = useQuery({ queryKey: key, queryFn: () => api.call(SETTINGS_ROUTES.getAlerts) });
  // Telegram is a destination only once a channel exists: a ticked box with no bot behind it
  // promised alerts that went nowhere (issue 22, L).
  const settingsApi = useSettingsApi();
  const channels = useQuery({ queryKey: channelKeys.all, queryFn: settingsApi.channels });
  const list = channels.data?.channels ?? [];
  const reachable = list.some((c) => c.enabled && c.owner);
  const surfaces = SURFACES.filter((s) => s.key !== "telegram" || list.length > 0);
  const save = useMutation({
    mutationFn: (body: AlertSettingsPatch) => api.call(SETTINGS_ROUTES.setAlerts, { body }),
    // The box follows the click at once; a refused save puts back what the daemon has.
    onMutate: (patch) =>
      client.setQueryData<AlertSettingsOut>(key, (old) =>
        old ? { browser: { ...old.browser, ...patch.browser }, telegram: { ...old.telegram, ...patch.telegram } } : old,
      ),
    onSuccess: (out) => client.setQueryData(key, out),
    onError: () => void client.invalidateQueries({ queryKey: key }),
  });
  return (
    <Page title="Alerts">
      <Section title="This browser">
        <p className="page-lead" style={{ margin: 0 }}>
          When a turn ends, fails or the agent asks you something while this tab is hidden, the tab's title and icon get a mark until you look
          again. Notifications also show it outside the browser, and a click opens the conversation.
        </p>
        <BrowserPermission />
      </Section>
      <Section title="Which events alert">
        {(settings.isPending || channels.isPending) && <SkeletonRows rows={3} label="Loading alert settings" />}
        <InlineError error={settings.error ?? channels.error} onRetry={() => void Promise.all([settings.refetch(), channels.refetch()])} />
        {settings.data && channels.isSuccess && <AlertMatrix value={settings.data} surfaces={surfaces} onChange={(patch) => save.mutate(patch)} />}
        <InlineError error={save.error} />
        {save.isSuccess && !save.isPending && (
          <span className="note-ok" role="status">
            Saved.
          </span>
        )}
        {channels.isSuccess && list.length === 0 && (
          <p className="field-hint">
            Alerts can also reach your phone through Telegram once you <Link to="/settings/channels">set up a Telegram channel</Link>.
          </p>
        )}
        {list.length > 0 && !reachable && (
          <p className="field-hint">
            No channel is switched on and paired with your phone yet, so Telegram alerts have nowhere to go. <Link to="/settings/channels">Open Channels</Link>
          </p>
        )}
        {reachable && (
          <p className="field-hint">
            Telegram alerts go to each enabled channel's paired owner, for conversations not bound to that chat (a bound chat already gets the whole reply).
          </p>
        )}
      </Section>
      <Section title="When the agent waits for you">
        <p className="page-lead" style={{ margin: 0 }}>
          A question shows here at once. If it is still open, your phone hears of it after a while, and you are reminded later. Nothing is ever
          answered for you; answering anywhere takes the alerts down everywhere.
        </p>
        <QuestionTimings />
      </Section>
    </Page>
  );
}

function BrowserPermission() {
  const [state, setState] = useState<NotificationState>(notificationState);
  const [on, setOn] = useState(() => notificationsSwitchedOn());
  const [asking, setAsking] = useState(false);
  const toggle = async (want: boolean) => {
    if (!want || state === "granted") {
      // Nothing to ask the browser: the switch follows the click in the same render.
      switchNotifications(want);
      setOn(want);
      return;
    }
    setAsking(true);
    try {
      // The browser asks once; a choice already made is answered at once.
      const next = await requestNotifications();
      setState(next);
      switchNotifications(next === "granted");
      setOn(next === "granted");
    } finally {
      setAsking(false);
    }
  };
  const active = on && state === "granted";
  return (
    <div className="card alerts-permission">
      <label className="check">
        <input type="checkbox" checked={active} disabled={asking || state === "unsupported" || state === "denied"} onChange={(e) => void toggle(e.target.checked)} />
        Browser notifications
      </label>
      {active && <StatusDot tone="success">On in this browser</StatusDot>}
      {!active && state === "denied" && <StatusDot tone="warning">Blocked: allow notifications for this site in the browser's settings</StatusDot>}
      {state === "unsupported" && <StatusDot tone="neutral">This browser cannot show notifications; the tab mark still works</StatusDot>}
      {!active && (state === "default" || state === "granted") && <StatusDot tone="neutral">Off in this browser</StatusDot>}
    </div>
  );
}

function AlertMatrix({
  value,
  surfaces,
  onChange,
}: {
  value: AlertSettingsOut;
  surfaces: readonly Surface[];
  onChange: (patch: AlertSettingsPatch) => void;
}) {
  // The boxes follow a click in the same render (a controlled box would snap back until the save lands).
  const [shown, setShown] = useState(value);
  useEffect(() => setShown(value), [value]);
  const set = (surface: keyof AlertSettingsOut, kind: AlertKind, on: boolean) => {
    setShown((s) => ({ ...s, [surface]: { ...s[surface], [kind]: on } }));
    onChange({ [surface]: { [kind]: on } });
  };
  return (
    <div className="card alerts-card">
      <table className="alerts-matrix" aria-label="Which events alert">
        <thead>
          <tr>
            <th scope="col">Event</th>
            {surfaces.map((s) => (
              <th key={s.key} scope="col">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ALERT_KINDS.map((kind) => (
            <tr key={kind}>
              <th scope="row">
                <span className="alerts-event">{EVENTS[kind].label}</span>
                <span className="field-hint">{EVENTS[kind].hint}</span>
              </th>
              {surfaces.map((s) => (
                <td key={s.key}>
                  {/* The label is the box's hit area: 44 px square on a touch screen (alerts.css). */}
                  <label className="alerts-cell">
                    <input
                      type="checkbox"
                      aria-label={`${s.label}: ${EVENTS[kind].label.toLowerCase()}`}
                      checked={shown[s.key][kind]}
                      onChange={(e) => set(s.key, kind, e.target.checked)}
                    />
                  </label>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
