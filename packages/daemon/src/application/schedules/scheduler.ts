import type { AgentLimitsOut, ScheduleLastRun, ScheduleRunStatus, SendMessageAck } from "@coffer/protocol";
import type { AuditSink } from "../audit-ports.js";
import type { Logger, ScheduleRef } from "../ports.js";
import type { AlarmClock } from "../timing/alarm-ports.js";
import type { CronTimetable } from "./cron-ports.js";
import type { ScheduleStore, StoredSchedule } from "./schedule-ports.js";
import { limitLiftsAt } from "./limit-wait.js";
import { cronOf, dueTimesSince } from "./schedule-timing.js";

export interface SchedulerDeps {
  readonly store: ScheduleStore;
  readonly alarms: AlarmClock;
  readonly cron: CronTimetable;
  /** The owner's zone (COFFER_TIME_ZONE): every schedule's times are read in it. */
  readonly zone: string;
  /**
   * The same path a typed message takes (TurnQueue.send): start now when idle, else queue
   * behind the running turn, never overlapping. The client id makes a repeated fire idempotent.
   */
  readonly send: (conversationId: string, text: string, clientId: string, schedule: ScheduleRef) => Promise<SendMessageAck>;
  /** A fresh conversation with the schedule's agent, folder and model; its id. */
  readonly openConversation: (agent: string, config: { cwd: string; model?: string }, title: string) => Promise<string>;
  /** The agent a conversation runs (null: gone). */
  readonly agentOf: (conversationId: string) => string | null;
  /** The plan limits the agent last reported, as they stand now (TurnReads.limitsOf). */
  readonly limitsOf: (agentKey: string) => AgentLimitsOut | null;
  readonly audit: AuditSink;
  readonly logger: Logger;
}

/** What one run did, as the routes and the audit tell it. */
export interface ScheduleRunResult {
  readonly conversationId: string | null;
  readonly status: ScheduleRunStatus;
  readonly queued: boolean;
  /** Set when a known plan limit holds the run until its reset (epoch ms). */
  readonly waitingUntil?: number;
}

type Trigger = "timetable" | "now";

/**
 * Arms the next due time of every active schedule on the AlarmClock and sends the prompt when it
 * comes. The armed time is stored, so a restart re-arms from the store and a due time missed
 * while the daemon was down or the machine slept is noticed: however many were missed, the
 * schedule runs ONCE and says so (last_run.caught_up, the audit's `missed`). Paused schedules
 * hold no alarm.
 *
 * One AlarmClock alarm serves every schedule — the earliest due time; when it fires, every
 * schedule then due runs and the next earliest is armed — so a thousand schedules cost the idle
 * daemon one wall-clock timer, not a thousand (bench/schedules).
 */
export class Scheduler {
  /** Each active schedule's armed due time. */
  private readonly due = new Map<string, number>();
  private alarm: { readonly at: number; readonly cancel: () => void } | null = null;
  /** Runs waiting for a plan limit's reset, by schedule (at most one each). */
  private readonly waiting = new Map<string, () => void>();
  /** Built-in schedules (the morning brief) on the same alarm, by their key in `due`. */
  private readonly builtins = new Map<string, (due: number) => void>();

  constructor(private readonly deps: SchedulerDeps) {}

  /** At start: every active schedule armed from its stored due time (a past one fires now, once). */
  start(): void {
    for (const s of this.deps.store.list()) this.arm(s);
  }

  stop(): void {
    this.alarm?.cancel();
    this.alarm = null;
    this.due.clear();
    this.builtins.clear();
    for (const cancel of this.waiting.values()) cancel();
    this.waiting.clear();
  }

  /** After a create or change: drop its alarm and arm it again from now (paused: none). */
  rearm(id: string, fromNow = true): void {
    this.disarm(id);
    const s = this.deps.store.get(id);
    if (!s) return;
    if (fromNow) this.deps.store.setNextDue(id, null);
    this.arm({ ...s, nextDue: fromNow ? null : s.nextDue });
  }

  disarm(id: string): void {
    this.due.delete(id);
    this.waiting.get(id)?.();
    this.waiting.delete(id);
    this.rearmClock();
  }

  /**
   * A built-in schedule (the morning brief) shares the one alarm: `fire(due)` when `at` comes —
   * late after a sleep, once. `at` null takes it off. The key cannot meet a schedule's id.
   */
  armBuiltin(key: string, at: number | null, fire: (due: number) => void): void {
    const id = `builtin:${key}`;
    this.due.delete(id);
    this.builtins.delete(id);
    if (at !== null) {
      this.due.set(id, at);
      this.builtins.set(id, fire);
    }
    this.rearmClock();
  }

  /** When it runs next (null while paused or never again). */
  nextDue(s: StoredSchedule): number | null {
    if (s.paused) return null;
    return s.nextDue ?? this.deps.cron.nextAfter(cronOf(s.when), this.deps.zone, this.deps.alarms.now());
  }

  /** "Run now": the prompt is sent as a run would send it; the timetable is unchanged. */
  runNow(s: StoredSchedule): Promise<ScheduleRunResult> {
    return this.run(s, this.deps.alarms.now(), 1, "now");
  }

  private arm(s: StoredSchedule): void {
    if (s.paused) return;
    const due = s.nextDue ?? this.deps.cron.nextAfter(cronOf(s.when), this.deps.zone, this.deps.alarms.now());
    if (due === null) return;
    if (s.nextDue !== due) this.deps.store.setNextDue(s.id, due);
    this.due.set(s.id, due);
    this.rearmClock();
  }

  /** The one alarm at the earliest due time (kept when it already is). */
  private rearmClock(): void {
    let earliest: number | null = null;
    for (const at of this.due.values()) if (earliest === null || at < earliest) earliest = at;
    if (this.alarm && this.alarm.at === earliest) return;
    this.alarm?.cancel();
    this.alarm = earliest === null ? null : { at: earliest, cancel: this.deps.alarms.at(earliest, () => this.tick()) };
  }

  /** The alarm rang (on time, or late after a sleep): every schedule due by now runs, once. */
  private tick(): void {
    this.alarm = null;
    const now = this.deps.alarms.now();
    for (const [id, at] of [...this.due]) {
      if (at > now) continue;
      this.due.delete(id);
      const builtin = this.builtins.get(id);
      this.builtins.delete(id);
      if (builtin) this.fireBuiltin(builtin, at);
      else void this.fire(id, at);
    }
    this.rearmClock();
  }

  private fireBuiltin(fire: (due: number) => void, due: number): void {
    try {
      fire(due);
    } catch (err) {
      this.deps.logger.warn("a built-in schedule failed", { err: err instanceof Error ? err.message : String(err) });
    }
  }

  private async fire(id: string, due: number): Promise<void> {
    const s = this.deps.store.get(id);
    if (!s || s.paused || s.nextDue !== due) return;
    const now = this.deps.alarms.now();
    const expression = cronOf(s.when);
    // Due times between this one and now were slept through: one run for all of them.
    const missed = dueTimesSince(this.deps.cron, expression, this.deps.zone, due, now);
    const next = this.deps.cron.nextAfter(expression, this.deps.zone, now);
    this.deps.store.setNextDue(id, next);
    if (next !== null) this.due.set(id, next);
    await this.run(s, due, missed, "timetable");
  }

  /**
   * A run the agent's known plan limit would refuse waits for its reset (one alarm; a newer run
   * of the same schedule replaces it) and says so; otherwise it is sent now.
   */
  private async run(s: StoredSchedule, due: number, missed: number, why: Trigger, waited?: number): Promise<ScheduleRunResult> {
    const { deps } = this;
    const now = deps.alarms.now();
    const heartbeat = "conversation_id" in s.target ? s.target.conversation_id : null;
    const agent = heartbeat ? deps.agentOf(heartbeat) : "fresh" in s.target ? s.target.fresh.agent : null;
    const until = agent ? limitLiftsAt(deps.limitsOf(agent), now) : null;
    if (until !== null) return this.waitForReset(s, due, missed, why, agent!, until);
    return this.send(s, due, missed, why, waited);
  }

  private waitForReset(s: StoredSchedule, due: number, missed: number, why: Trigger, agent: string, until: number): ScheduleRunResult {
    const { deps } = this;
    const now = deps.alarms.now();
    this.waiting.get(s.id)?.();
    this.waiting.set(
      s.id,
      deps.alarms.at(until, () => {
        this.waiting.delete(s.id);
        const fresh = deps.store.get(s.id);
        if (fresh && !fresh.paused) void this.run(fresh, due, missed, why, until);
      }),
    );
    const message = `${agent}'s plan limit is reached; waiting for its reset at ${new Date(until).toISOString()}`;
    const conversationId = "conversation_id" in s.target ? s.target.conversation_id : null;
    deps.store.setLastRun(s.id, { at: new Date(now).toISOString(), conversation_id: conversationId, status: "waiting", ...(missed > 1 ? { caught_up: missed } : {}), message });
    deps.audit("user", "schedule_run", { schedule_id: s.id, name: s.name, conversation_id: conversationId, status: "waiting", trigger: why, due_at: new Date(due).toISOString(), agent_key: agent, until: new Date(until).toISOString(), note: message }, now);
    return { conversationId, status: "waiting", queued: true, waitingUntil: until };
  }

  private async send(s: StoredSchedule, due: number, missed: number, why: Trigger, waited?: number): Promise<ScheduleRunResult> {
    const { deps } = this;
    const now = deps.alarms.now();
    const notes = [missed > 1 ? `missed ${missed} runs while the machine slept; ran once` : null, waited !== undefined ? "waited for the plan limit's reset" : null].filter((n) => n !== null);
    const note = notes.length ? notes.join("; ") : undefined;
    let result: ScheduleRunResult;
    let message: string | undefined = note;
    try {
      const conversationId =
        "conversation_id" in s.target
          ? s.target.conversation_id
          : await deps.openConversation(s.target.fresh.agent, { cwd: s.target.fresh.cwd, ...(s.target.fresh.model ? { model: s.target.fresh.model } : {}) }, s.name);
      // One client id per due time: a second fire for the same time is the same message.
      const clientId = why === "now" ? `schedule:${s.id}:now:${now}` : `schedule:${s.id}:${due}`;
      const ack = await deps.send(conversationId, s.prompt, clientId, { id: s.id, name: s.name });
      result = { conversationId, status: ack.queued ? "queued" : "sent", queued: ack.queued };
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      message = note ? `${note}; ${why}` : why;
      result = { conversationId: "conversation_id" in s.target ? s.target.conversation_id : null, status: "failed", queued: false };
      deps.logger.warn("a scheduled run could not be sent", { schedule: s.id });
    }
    const lastRun: ScheduleLastRun = {
      at: new Date(now).toISOString(),
      conversation_id: result.conversationId,
      status: result.status,
      ...(missed > 1 ? { caught_up: missed } : {}),
      ...(message ? { message } : {}),
    };
    deps.store.setLastRun(s.id, lastRun);
    deps.audit(
      "user",
      "schedule_run",
      {
        schedule_id: s.id,
        name: s.name,
        conversation_id: result.conversationId,
        status: result.status,
        trigger: why,
        due_at: new Date(due).toISOString(),
        ...(missed > 1 ? { missed } : {}),
        ...(note ? { note } : {}),
        ...(waited !== undefined ? { waited_until: new Date(waited).toISOString() } : {}),
        ...(result.status === "failed" && message ? { error: message } : {}),
      },
      now,
    );
    return result;
  }
}
