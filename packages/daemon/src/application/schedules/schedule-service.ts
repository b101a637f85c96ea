import type { ScheduleCreate, ScheduleListOut, ScheduleOut, SchedulePatch, ScheduleRunOut, ScheduleTarget, ScheduleWhen } from "@coffer/protocol";
import { ScheduleInvalid, ScheduleNotFound } from "../../domain/schedule-errors.js";
import type { AuditSink } from "../audit-ports.js";
import type { Clock, IdGenerator } from "../ports.js";
import type { CronTimetable } from "./cron-ports.js";
import type { ScheduleStore, StoredSchedule } from "./schedule-ports.js";
import type { Scheduler } from "./scheduler.js";
import { cronOf } from "./schedule-timing.js";

export interface ScheduleServiceDeps {
  readonly store: ScheduleStore;
  readonly scheduler: Scheduler;
  readonly cron: CronTimetable;
  readonly zone: string;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly audit: AuditSink;
  readonly conversationExists: (id: string) => boolean;
  /**
   * Whether the agent would open a conversation with this folder and model (the agent's own
   * check, so a schedule is refused now rather than failing at 07:00): null when fine, else
   * which field and why.
   */
  readonly checkAgent: (agent: string, config: { cwd: string; model?: string }) => Promise<{ field: string; why: string } | null>;
}

/** Recurring prompts as the owner manages them (the API, `coffer schedule`): checked, stored, audited, armed. */
export class ScheduleService {
  constructor(private readonly deps: ScheduleServiceDeps) {}

  async create(input: ScheduleCreate): Promise<ScheduleOut> {
    const { store, clock, ids, audit, scheduler } = this.deps;
    await this.check(input.when, input.target);
    const now = clock.now();
    const s: StoredSchedule = { id: ids(), name: input.name, prompt: input.prompt, when: input.when, target: input.target, paused: input.paused ?? false, nextDue: null, lastRun: null, createdAt: now };
    store.insert(s, now);
    audit("user", "schedule_created", { schedule_id: s.id, name: s.name, when: s.when, target: s.target, paused: s.paused }, now);
    scheduler.rearm(s.id);
    return this.get(s.id);
  }

  async update(id: string, patch: SchedulePatch): Promise<ScheduleOut> {
    const { store, clock, audit, scheduler } = this.deps;
    const before = this.require(id);
    const when = patch.when ?? before.when;
    const target = patch.target ?? before.target;
    if (patch.when || patch.target) await this.check(when, target);
    const now = clock.now();
    const after: StoredSchedule = { ...before, name: patch.name ?? before.name, prompt: patch.prompt ?? before.prompt, when, target, paused: patch.paused ?? before.paused };
    store.update(after, now);
    audit("user", "schedule_changed", { schedule_id: id, name: after.name, changed: Object.keys(patch).sort(), paused: after.paused }, now);
    // A new timetable, or a resume, counts from now: a resumed schedule does not catch up on its pause.
    const retimed = patch.when !== undefined || (before.paused && !after.paused) || after.paused;
    if (retimed) scheduler.rearm(id);
    return this.get(id);
  }

  /** Oldest first, each with its next and last run. */
  list(): ScheduleListOut {
    const schedules = this.deps.store.list();
    return { schedules: schedules.map((s) => this.out(s)) };
  }

  get(id: string): ScheduleOut {
    const s = this.require(id);
    return this.out(s);
  }

  remove(id: string): void {
    const s = this.require(id);
    this.deps.scheduler.disarm(id);
    this.deps.store.remove(id);
    this.deps.audit("user", "schedule_deleted", { schedule_id: id, name: s.name }, this.deps.clock.now());
  }

  async runNow(id: string): Promise<ScheduleRunOut> {
    const result = await this.deps.scheduler.runNow(this.require(id));
    if (result.waitingUntil !== undefined) return { conversation_id: result.conversationId, queued: true, waiting_until: new Date(result.waitingUntil).toISOString() };
    if (result.status === "failed" || result.conversationId === null) {
      const latest = this.require(id).lastRun;
      throw new ScheduleInvalid("target", latest?.message ?? "the run could not be sent");
    }
    return { conversation_id: result.conversationId, queued: result.queued };
  }

  private require(id: string): StoredSchedule {
    const s = this.deps.store.get(id);
    if (!s) throw new ScheduleNotFound(id);
    return s;
  }

  private async check(when: ScheduleWhen, target: ScheduleTarget): Promise<void> {
    const problem = this.deps.cron.problem(cronOf(when), this.deps.zone);
    if (problem) throw new ScheduleInvalid(problem.field, problem.why);
    if ("conversation_id" in target) {
      if (!this.deps.conversationExists(target.conversation_id)) throw new ScheduleInvalid("target.conversation_id", `no conversation ${target.conversation_id}`);
      return;
    }
    const { agent, cwd, model } = target.fresh;
    const refused = await this.deps.checkAgent(agent, { cwd, ...(model ? { model } : {}) });
    if (refused) throw new ScheduleInvalid(refused.field, refused.why);
  }

  private out(s: StoredSchedule): ScheduleOut {
    const next = this.deps.scheduler.nextDue(s);
    return {
      id: s.id,
      name: s.name,
      prompt: s.prompt,
      when: s.when,
      target: s.target,
      paused: s.paused,
      time_zone: this.deps.zone,
      next_run_at: next === null ? null : new Date(next).toISOString(),
      last_run: s.lastRun,
      created_at: new Date(s.createdAt).toISOString(),
    };
  }
}
