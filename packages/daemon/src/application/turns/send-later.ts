import { LATER_MAX_AHEAD_MS } from "@coffer/protocol";
import { SendAtPast, SendAtTooFar } from "../../domain/later-errors.js";
import type { AuditSink } from "../audit-ports.js";
import type { PlanLimitsBook } from "../limits/plan-limits-book.js";
import type { ConversationStore, LaterRef, LaterRow, PendingRow, PendingStore } from "../ports.js";
import { limitLiftsAt } from "../schedules/limit-wait.js";
import type { AlarmClock } from "../timing/alarm-ports.js";

/** What a sender asked: a time (epoch ms), or the agent's plan-limit reset. */
export type LaterRequest = { readonly at: number } | { readonly reset: true };

export interface SendLaterDeps {
  readonly pending: Pick<PendingStore, "listLater" | "setLater">;
  readonly conversations: Pick<ConversationStore, "getConversation">;
  readonly alarms: AlarmClock;
  readonly limits: PlanLimitsBook;
  readonly audit: AuditSink;
  readonly publishQueue: (conversationId: string) => void;
  /** Run the queue's next ready message when nothing runs (TurnQueue.advance). */
  readonly advance: (conversationId: string) => Promise<void>;
}

/** Whether a queued row may run now: no time, or its time came. */
export function isReady(row: Pick<PendingRow, "later">, now: number): boolean {
  return !row.later || row.later.at <= now;
}

/**
 * Send later (issue 27): the queued messages that carry a time, on ONE AlarmClock alarm (the
 * earliest time among them, in every conversation). A scheduled message stays in its place in
 * the queue; `TurnQueue.advance` passes over it until its time, so the unscheduled messages
 * behind it run meanwhile. When the alarm rings, each conversation with a message now due is
 * advanced: the message runs in its place, behind a running turn, never overlapping.
 *
 * A "limit_reset" message follows the agent's reported reset: every plan-limit report moves it to
 * the reset as it now stands (the limit lifted meanwhile: due now).
 */
export class SendLater {
  private alarm: { readonly at: number; readonly cancel: () => void } | null = null;

  constructor(private readonly deps: SendLaterDeps) {
    deps.limits.onRecord((agentKey) => this.limitsMoved(agentKey));
  }

  /**
   * What a send asks for, checked and resolved to a time; null when it should go now (a "limit
   * reset" with no plan limit reached: the owner wants it sent as soon as the agent can take it,
   * and it can now). `field` names the request's field in an error.
   */
  resolve(agentKey: string, req: LaterRequest, field: string): LaterRef | null {
    const now = this.deps.alarms.now();
    if ("reset" in req) {
      const at = limitLiftsAt(this.deps.limits.get(agentKey, now), now);
      return at === null ? null : { at, when: "limit_reset" };
    }
    const iso = new Date(req.at).toISOString();
    if (req.at <= now) throw new SendAtPast(field, iso);
    if (req.at - now > LATER_MAX_AHEAD_MS) throw new SendAtTooFar(field, iso);
    return { at: req.at, when: "at" };
  }

  /**
   * At start (after recovery): a message whose time passed while the daemon was down is marked
   * `missed` (its queue mark says so), audited once, and its queue advanced: each is sent once, in
   * its queue's order. Then the alarm is armed for the rest.
   */
  start(): void {
    const now = this.deps.alarms.now();
    const woke = new Set<string>();
    for (const r of this.deps.pending.listLater()) {
      if (r.later.at > now || r.later.missed) continue;
      this.deps.pending.setLater(r.id, { ...r.later, missed: true });
      this.audit(r, "chat_later_due", { missed: true }, now);
      woke.add(r.conversationId);
    }
    this.rearm();
    for (const id of woke) this.wake(id);
  }

  /** The scheduled messages changed (a send, an edit, a cancel, a run): the one alarm follows. */
  rearm(): void {
    const now = this.deps.alarms.now();
    const earliest = this.deps.pending.listLater().find((r) => r.later.at > now)?.later.at ?? null;
    if (this.alarm && this.alarm.at === earliest) return;
    this.alarm?.cancel();
    this.alarm = earliest === null ? null : { at: earliest, cancel: this.deps.alarms.at(earliest, () => this.ring(earliest)) };
  }

  /** Shutdown: the alarm stops; the times stay stored for the next start. */
  stop(): void {
    this.alarm?.cancel();
    this.alarm = null;
  }

  /** The alarm rang (on time, or late after a sleep): every message due since the last ring joins its queue. */
  private ring(armedAt: number): void {
    this.alarm = null;
    const now = this.deps.alarms.now();
    const due = this.deps.pending.listLater().filter((r) => r.later.at <= now && r.later.at >= armedAt);
    for (const r of due) this.audit(r, "chat_later_due", {}, now);
    this.rearm();
    for (const id of new Set(due.map((r) => r.conversationId))) this.wake(id);
  }

  /** An agent reported its limits: its "at the reset" messages follow the reset as it now stands. */
  private limitsMoved(agentKey: string): void {
    const now = this.deps.alarms.now();
    const lifts = limitLiftsAt(this.deps.limits.get(agentKey, now), now);
    const moved = new Set<string>();
    for (const r of this.deps.pending.listLater()) {
      if (r.later.when !== "limit_reset" || r.later.at <= now) continue;
      if (this.deps.conversations.getConversation(r.conversationId)?.agentKey !== agentKey) continue;
      const at = lifts ?? now;
      if (at === r.later.at) continue;
      this.deps.pending.setLater(r.id, { at, when: "limit_reset" });
      this.audit(r, "chat_later_changed", { send_at: new Date(at).toISOString(), by: "limit_reset_moved" }, now);
      moved.add(r.conversationId);
    }
    if (!moved.size) return;
    this.rearm();
    for (const id of moved) this.wake(id);
  }

  private wake(conversationId: string): void {
    this.deps.publishQueue(conversationId);
    void this.deps.advance(conversationId).catch(() => undefined); // the conversation may be gone
  }

  private audit(r: LaterRow, action: "chat_later_due" | "chat_later_changed", extra: Record<string, unknown>, now: number): void {
    this.deps.audit("user", action, { conversation_id: r.conversationId, pending_id: r.id, send_at: new Date(r.later.at).toISOString(), when: r.later.when, ...extra }, now);
  }
}
