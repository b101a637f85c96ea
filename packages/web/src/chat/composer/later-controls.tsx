import { CHAT_AREA_ROUTES, laterTimeWords, nextClockTime, type AttachmentOut, type LaterMark, type PendingPreview } from "@coffer/protocol";
import { useEffect, useId, useRef, useState } from "react";
import { useApi } from "../../api/api-context.js";
import { ApiError } from "../../api/client.js";
import { Icon } from "../../ui/icons.js";
import { useToast } from "../../ui/toasts.js";
import "./later.css";

// Send later (issue 27) on the page: the composer's clock button and the queue row's time. A lazy
// chunk of its own: the Chat's first load is on a budget, and most messages go now.

const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
const HOUR = 3_600_000;

/** The value a datetime-local input takes for `ms` in this browser's zone ("2026-12-07T07:00"). */
function localInput(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

type When = { readonly send_at: string } | { readonly send_when: "limit_reset" };

/**
 * A popover of choices under a button. Opening it puts the focus on its first choice; Esc closes
 * it and gives the focus back; the focus leaving it (a click elsewhere, Tab past its end) closes
 * it. The panel takes focus itself (tabIndex -1), so a click on its own text keeps it open.
 */
function usePopover() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open) panel.current?.querySelector<HTMLElement>("button, input")?.focus();
  }, [open]);
  const wrap = {
    onKeyDown: (e: React.KeyboardEvent) => {
      if (e.key !== "Escape" || !open) return;
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      button.current?.focus();
    },
    onBlur: (e: React.FocusEvent<HTMLElement>) => {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOpen(false);
    },
  };
  return { open, setOpen, button, panel, wrap };
}

/** The date/time field and its button: a time in the past or more than 30 days ahead is the daemon's to refuse. */
function PickTime({ initial, action, onPick }: { initial: number; action: string; onPick: (iso: string) => void }) {
  const [value, setValue] = useState(() => localInput(initial));
  const id = useId();
  return (
    <form
      className="later-pick"
      onSubmit={(e) => {
        e.preventDefault();
        const ms = new Date(value).getTime();
        if (Number.isFinite(ms)) onPick(new Date(ms).toISOString());
      }}
    >
      <label htmlFor={id}>Pick a date and time</label>
      <span className="later-pick-row">
        <input id={id} type="datetime-local" value={value} onChange={(e) => setValue(e.target.value)} required />
        <button type="submit" className="btn btn-sm">
          {action}
        </button>
      </span>
    </form>
  );
}

export interface LaterButtonProps {
  readonly conversationId: string;
  readonly agentName: string;
  readonly text: string;
  readonly files: readonly AttachmentOut[];
  /** Nothing to send yet (or files still uploading). */
  readonly disabled: boolean;
  /** Scheduled: the composer clears its text and files, as a send does. */
  readonly onSent: () => void;
}

/** The composer's "Send later": presets (in 1 h, tomorrow 09:00, the plan-limit reset when one is reached) and a date/time picker. */
export function LaterButton({ conversationId, agentName, text, files, disabled, onSent }: LaterButtonProps) {
  const api = useApi();
  const toast = useToast();
  const pop = usePopover();
  const [reset, setReset] = useState<number | null>(null);
  const id = useId();
  useEffect(() => {
    if (!pop.open) return;
    // "At the limit reset" is offered only when this agent reported a full window with a reset to come.
    api.agents().then(
      ({ agents }) => {
        const now = Date.now();
        const windows = agents.find((a) => a.display_name === agentName)?.limits?.windows ?? [];
        const full = windows.filter((w) => (w.used_percent ?? 0) >= 100 && w.resets_at && Date.parse(w.resets_at) > now);
        setReset(full.length ? Math.max(...full.map((w) => Date.parse(w.resets_at!))) : null);
      },
      () => setReset(null),
    );
  }, [api, agentName, pop.open]);
  const schedule = (when: When) => {
    pop.setOpen(false);
    const body = { text, client_id: crypto.randomUUID(), ...(files.length ? { attachment_ids: files.map((f) => f.id) } : {}), ...when };
    api.call(CHAT_AREA_ROUTES.sendMessage, { params: { id: conversationId }, body }).then(
      (ack) => {
        onSent();
        toast({ text: ack.later ? `Will send ${laterTimeWords(ack.later.send_at, ZONE)}` : "Sent now: no plan limit is reached" });
      },
      (err: unknown) => toast({ tone: "error", text: `Could not schedule it: ${err instanceof ApiError ? err.message : String(err)}` }),
    );
  };
  const now = Date.now();
  const presets: { label: string; when: When }[] = [
    { label: `In 1 hour · ${laterTimeWords(new Date(now + HOUR).toISOString(), ZONE)}`, when: { send_at: new Date(now + HOUR).toISOString() } },
    { label: `Tomorrow 09:00`, when: { send_at: new Date(nextClockTime(9, 0, now + (new Date(now).getHours() < 9 ? 86_400_000 : 0), ZONE)).toISOString() } },
    ...(reset ? [{ label: `When the limit resets · ${laterTimeWords(new Date(reset).toISOString(), ZONE)}`, when: { send_when: "limit_reset" as const } }] : []),
  ];
  return (
    <span className="later-wrap" {...pop.wrap}>
      <button
        ref={pop.button}
        type="button"
        className="icon-btn later-btn"
        aria-label="Send later"
        title="Send later"
        aria-haspopup="dialog"
        aria-expanded={pop.open}
        aria-controls={pop.open ? id : undefined}
        disabled={disabled}
        onClick={() => pop.setOpen((o) => !o)}
      >
        <Icon name="clock" size={16} />
      </button>
      {pop.open && (
        <div ref={pop.panel} id={id} role="dialog" aria-label="Send later" className="later-panel" tabIndex={-1}>
          <div className="later-title">Send later</div>
          {presets.map((p) => (
            <button key={p.label} type="button" className="menu-item" onClick={() => schedule(p.when)}>
              {p.label}
            </button>
          ))}
          <PickTime initial={now + HOUR} action="Schedule" onPick={(iso) => schedule({ send_at: iso })} />
        </div>
      )}
    </span>
  );
}

export interface LaterTimeProps {
  readonly conversationId: string;
  readonly item: PendingPreview & { readonly later: LaterMark };
  readonly pending: readonly PendingPreview[];
}

/** A scheduled queue row's time: shown on the row; opens to change it or send it now (in its place). Remove cancels it. */
export function LaterTime({ conversationId, item, pending }: LaterTimeProps) {
  const api = useApi();
  const toast = useToast();
  const pop = usePopover();
  const id = useId();
  const at = laterTimeWords(item.later.send_at, ZONE);
  const save = (sendAt: string | null) => {
    pop.setOpen(false);
    // The queue as this page shows it, this one's time changed; the rest kept by id (their texts and times stay).
    const rows = pending.map((p) => (p.id === item.id ? { id: p.id, send_at: sendAt } : { id: p.id }));
    api.setPending(conversationId, rows, false, pending.map((p) => p.id)).catch((err: unknown) =>
      toast({ tone: "error", text: `Could not change the time: ${err instanceof ApiError ? err.message : String(err)}` }),
    );
  };
  const label = item.later.missed ? `Due ${at} — came due while Coffer was down` : item.later.due ? `Due ${at}` : item.later.when === "limit_reset" ? `At the limit reset · ${at}` : at;
  return (
    <span className="later-wrap" {...pop.wrap}>
      <button
        ref={pop.button}
        type="button"
        className="later-mark"
        aria-label={`Scheduled: ${label}. Change the time`}
        title="Change the time"
        aria-haspopup="dialog"
        aria-expanded={pop.open}
        aria-controls={pop.open ? id : undefined}
        onClick={() => pop.setOpen((o) => !o)}
      >
        <Icon name="clock" size={12} />
        {label}
      </button>
      {pop.open && (
        <div ref={pop.panel} id={id} role="dialog" aria-label="Change the time" className="later-panel later-panel-row" tabIndex={-1}>
          <div className="later-title">“{item.text.length > 40 ? `${item.text.slice(0, 39)}…` : item.text}” · {label}</div>
          <button type="button" className="menu-item" onClick={() => save(null)}>
            Send now (in its place in the queue)
          </button>
          <PickTime initial={Math.max(Date.parse(item.later.send_at), Date.now() + HOUR)} action="Save time" onPick={save} />
        </div>
      )}
    </span>
  );
}
