import { BriefSettingsOut, DEFAULT_BRIEF, type AuditActor, type BriefOut, type BriefSettingsPatch, type BriefTargets } from "@coffer/protocol";
import { ScheduleInvalid } from "../../domain/schedule-errors.js";
import type { AuditSink } from "../audit-ports.js";
import type { Logger } from "../ports.js";
import type { SettingsStore } from "../retention/ports.js";
import type { AlarmClock } from "../timing/alarm-ports.js";
import type { BriefDelivery, BriefSources } from "./brief-ports.js";
import { briefText, type BriefRecords } from "./brief-text.js";
import type { CronTimetable } from "./cron-ports.js";

const DAY = 86_400_000;
/** Later than this after its time, a brief was slept through (a wake), not merely a busy tick. */
const WAKE_GRACE_MS = 60_000;
const KEY = "brief";

/** The scheduler's one alarm, as the brief uses it (Scheduler.armBuiltin). */
export interface BuiltinAlarm {
  armBuiltin(key: string, at: number | null, fire: (due: number) => void): void;
}

export interface MorningBriefDeps {
  readonly store: SettingsStore;
  readonly alarm: BuiltinAlarm;
  readonly alarms: AlarmClock;
  readonly cron: CronTimetable;
  readonly zone: string;
  readonly sources: BriefSources;
  readonly deliver: BriefDelivery;
  readonly audit: AuditSink;
  readonly logger: Logger;
}

/** What is stored under "brief": the owner's settings plus the armed time and the last brief. */
interface Stored {
  readonly enabled: boolean;
  readonly at: string;
  readonly to: BriefTargets;
  readonly nextDue: number | null;
  readonly lastSent: number | null;
}

/**
 * The morning brief (issue 27): a built-in schedule on the scheduler's one alarm, off until the
 * owner turns it on. Its armed time is stored, so a brief due while the daemon was down or the
 * machine slept is sent once on wake and says so; the next is counted from now (a week asleep is
 * one brief, not seven). "Send it now" is a preview: it does not move the daily brief's "since".
 */
export class MorningBrief {
  constructor(private readonly deps: MorningBriefDeps) {}

  /** At start: the stored time armed (a past one fires now, once). */
  start(): void {
    this.arm(this.read());
  }

  stop(): void {
    this.deps.alarm.armBuiltin(KEY, null, () => {});
  }

  get(): BriefSettingsOut {
    return this.out(this.read());
  }

  update(patch: BriefSettingsPatch, actor: AuditActor = "user"): BriefSettingsOut {
    const old = this.read();
    const to = { ...old.to, ...Object.fromEntries(Object.entries(patch.to ?? {}).filter(([, v]) => v !== undefined)) } as BriefTargets;
    if (!to.phone && !to.page) throw new ScheduleInvalid("to", "the brief must go to the phone, the page or both");
    const enabled = patch.enabled ?? old.enabled;
    const at = patch.at ?? old.at;
    // Turned on, or a new time: counted from now (never a catch-up for a time set in the past).
    const retime = enabled !== old.enabled || at !== old.at;
    const next: Stored = { ...old, enabled, at, to, nextDue: !enabled ? null : retime || old.nextDue === null ? this.nextAfter(at, this.deps.alarms.now()) : old.nextDue };
    this.write(next);
    this.deps.audit(actor, "brief_settings_changed", { enabled, at, to, time_zone: this.deps.zone }, this.deps.alarms.now());
    this.arm(next);
    return this.out(next);
  }

  /** "Send it now": built and delivered as the daily one would be; the daily time is unchanged. */
  sendNow(actor: AuditActor = "user"): BriefOut {
    return this.send(this.read(), null, "now", actor);
  }

  private fire(due: number): void {
    const s = this.read();
    if (!s.enabled || s.nextDue !== due) return;
    const now = this.deps.alarms.now();
    const next = { ...s, nextDue: this.nextAfter(s.at, now), lastSent: now };
    this.write(next);
    this.arm(next);
    try {
      this.send(s, now - due > WAKE_GRACE_MS ? due : null, "timetable", "user");
    } catch (err) {
      this.deps.logger.warn("the morning brief could not be sent", { err: err instanceof Error ? err.message : String(err) });
    }
  }

  private send(s: Stored, caughtUpFrom: number | null, trigger: "timetable" | "now", actor: AuditActor): BriefOut {
    const now = this.deps.alarms.now();
    const since = s.lastSent ?? now - DAY;
    const records = this.records(since, now, caughtUpFrom);
    const phone = briefText(records);
    // The page links each conversation, so its text carries no /open numbers.
    const page = briefText({ ...records, conversations: records.conversations.map((c) => ({ ...c, openNumber: null })), questions: records.questions.map((q) => ({ ...q, openNumber: null })), queued: records.queued.map((q) => ({ ...q, openNumber: null })) });
    const phoneChats = s.to.phone ? this.deps.deliver.phone(phone.text) : 0;
    if (s.to.page) {
      const named = new Map<string, string | null>();
      for (const c of records.conversations) named.set(c.conversationId, c.title);
      this.deps.deliver.page({ type: "owner_brief", text: page.text, conversations: [...named].map(([conversation_id, title]) => ({ conversation_id, title })) });
    }
    this.deps.audit(actor, "brief_sent", { trigger, since: iso(since), quiet: phone.quiet, phone_chats: phoneChats, page: s.to.page, ...(caughtUpFrom !== null ? { caught_up_from: iso(caughtUpFrom) } : {}) }, now);
    return {
      since: iso(since),
      at: iso(now),
      text: phone.text,
      quiet: phone.quiet,
      caught_up: caughtUpFrom !== null,
      conversations: records.conversations.map((c) => ({ conversation_id: c.conversationId, title: c.title, finished: c.finished, failed: c.failed, stopped: c.stopped, open_number: c.openNumber })),
      delivered: { phone_chats: phoneChats, page: s.to.page },
    };
  }

  private records(since: number, at: number, caughtUpFrom: number | null): BriefRecords {
    const { sources } = this.deps;
    const numbers = sources.openNumbers();
    const number = (id: string) => numbers.get(id) ?? null;
    const turns = new Map<string, { finished: number; failed: number; stopped: number }>();
    for (const t of sources.turnsSince(since)) {
      const c = turns.get(t.conversationId) ?? { finished: 0, failed: 0, stopped: 0 };
      if (t.status === "failed") c.failed++;
      else if (t.stopReason === "interrupted") c.stopped++;
      else c.finished++;
      turns.set(t.conversationId, c);
    }
    const schedules = new Map<string, { ran: number; failed: number }>();
    for (const r of sources.scheduleRunsSince(since)) {
      const s = schedules.get(r.name) ?? { ran: 0, failed: 0 };
      if (r.status === "failed") s.failed++;
      else if (r.status !== "waiting") s.ran++;
      schedules.set(r.name, s);
    }
    return {
      since,
      at,
      zone: this.deps.zone,
      caughtUpFrom,
      conversations: [...turns].map(([id, c]) => ({ conversationId: id, title: sources.title(id), ...c, openNumber: number(id) })),
      questions: sources.openQuestions().map((q) => ({ title: sources.title(q.conversationId), text: q.text, askedAt: q.askedAt, openNumber: number(q.conversationId) })),
      queued: sources.queues().map((q) => ({ title: sources.title(q.conversationId), count: q.count, held: q.held, openNumber: number(q.conversationId) })),
      schedules: [...schedules].map(([name, s]) => ({ name, ...s })),
      limits: sources.limits(),
    };
  }

  private arm(s: Stored): void {
    this.deps.alarm.armBuiltin(KEY, s.enabled ? s.nextDue : null, (due) => this.fire(due));
  }

  private nextAfter(at: string, after: number): number | null {
    const [h, m] = at.split(":").map(Number);
    return this.deps.cron.nextAfter(`${m} ${h} * * *`, this.deps.zone, after);
  }

  /** Field by field: a stored value that no longer fits falls back to its default. */
  private read(): Stored {
    const raw: unknown = this.deps.store.get(KEY);
    const saved = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
    const fields = BriefSettingsOut.shape;
    const enabled = fields.enabled.safeParse(saved.enabled);
    const at = fields.at.safeParse(saved.at);
    const to = fields.to.safeParse(saved.to);
    const ms = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
    return {
      enabled: enabled.success ? enabled.data : DEFAULT_BRIEF.enabled,
      at: at.success ? at.data : DEFAULT_BRIEF.at,
      to: to.success ? to.data : { ...DEFAULT_BRIEF.to },
      nextDue: ms(saved.next_due_ms),
      lastSent: ms(saved.last_sent_ms),
    };
  }

  private write(s: Stored): void {
    this.deps.store.set(KEY, { enabled: s.enabled, at: s.at, to: s.to, next_due_ms: s.nextDue, last_sent_ms: s.lastSent }, this.deps.alarms.now());
  }

  private out(s: Stored): BriefSettingsOut {
    return { enabled: s.enabled, at: s.at, to: s.to, time_zone: this.deps.zone, next_at: s.enabled && s.nextDue !== null ? iso(s.nextDue) : null, last_sent_at: s.lastSent === null ? null : iso(s.lastSent) };
  }
}

const iso = (ms: number) => new Date(ms).toISOString();
