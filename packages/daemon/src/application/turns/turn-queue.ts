import type { AttachmentOut, Delivery, PendingItemIn, PendingQueueOut, SendMessageAck } from "@coffer/protocol";
import type { Conversation } from "../../domain/conversation.js";
import { DomainError, PendingNotFound, QueueFull } from "../../domain/errors.js";
import type { AuditSink } from "../audit-ports.js";
import type { Clock, ConversationStore, IdGenerator, LaterRef, Logger, MessageStore, PendingRow, PendingStore, ScheduleRef, Transactor } from "../ports.js";
import { toLaterMark } from "../presenters.js";
import type { SecretScrubber } from "../secrets/secret-scrubber.js";
import type { BusHub } from "./bus-hub.js";
import type { EditHolds } from "./edit-holds.js";
import type { PlanLimitParking } from "./plan-limit-parking.js";
import { requireConversation } from "./require-conversation.js";
import type { RunningTurns } from "./running-turns.js";
import { isReady, type LaterRequest, type SendLater } from "./send-later.js";
import type { TurnReads } from "./turn-reads.js";
import type { TurnSteering } from "./turn-steering.js";

export const DEFAULT_QUEUE_MAX = 100;

export interface TurnQueueDeps {
  readonly tx: Transactor;
  readonly conversations: Pick<ConversationStore, "getConversation" | "setQueuePaused">;
  readonly messages: Pick<MessageStore, "findMessageByClientId">;
  readonly pending: Pick<PendingStore, "countPending" | "appendPending" | "listPending" | "replacePending" | "findPendingByClientId">;
  readonly hub: BusHub;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  readonly scrubber?: SecretScrubber;
  /** The most messages one conversation may queue (COFFER_QUEUE_MAX). */
  readonly queueMax: number;
  readonly running: RunningTurns;
  readonly steering: TurnSteering;
  readonly edits: EditHolds;
  readonly parking: PlanLimitParking;
  readonly reads: Pick<TurnReads, "pending" | "publishQueue">;
  readonly audit: AuditSink;
  /** The messages sent later: their times, checked, and the one alarm that wakes the queue for them. */
  readonly later: SendLater;
  /** Start a turn now (TurnLifecycle.begin): the pending row, when given, leaves the queue with it. */
  readonly begin: (conv: Conversation, text: string, clientId: string | null, pendingId: string | null, attachments?: readonly AttachmentOut[], voice?: boolean, schedule?: ScheduleRef) => Promise<unknown>;
}

/**
 * Each conversation's durable FIFO queue behind its running turn: send (start now or queue),
 * "Send now", the owner's edits to the whole queue, resume, and `advance`, which runs the
 * head once nothing runs, nothing holds it and nobody edits it.
 */
export class TurnQueue {
  constructor(private readonly deps: TurnQueueDeps) {}

  /**
   * Start now when idle, unpaused and nothing queued; otherwise queue. Always unpauses.
   * `steer` while a turn runs hands the text to that turn instead (falling back to the
   * queue's head); idle, it is a plain send. `voice`: the text is a recording's transcript (the 🎤 mark).
   */
  async send(conversationId: string, text: string, clientId?: string, delivery: Delivery = "queue", attachments: readonly AttachmentOut[] = [], voice = false, schedule?: ScheduleRef, later?: LaterRequest): Promise<SendMessageAck> {
    const { tx, conversations, pending, running } = this.deps;
    const conv = requireConversation(conversations, conversationId);
    if (clientId) {
      const repeat = this.findRepeat(conversationId, clientId);
      if (repeat) return repeat;
    }
    // "When the limit resets" with no limit reached resolves to null: it goes now, as typed.
    const time = later ? this.deps.later.resolve(conv.agentKey, later, "at" in later ? "send_at" : "send_when") : null;
    if (time) return this.sendLater(conv, { id: this.deps.ids(), text, clientId: clientId ?? null, ...(attachments.length ? { attachments } : {}), ...(voice ? { voice } : {}), ...(schedule ? { schedule } : {}), later: time });
    const turn = running.get(conversationId);
    // A steer carries text only: a message with files waits its turn in the queue (docs/decisions.md, "One attachment model").
    if (delivery === "steer" && turn && attachments.length === 0) return this.deps.steering.steer(conv, turn, { text, clientId: clientId ?? null, pendingId: null, voice });
    const held = this.deps.parking.get(conversationId) !== null;
    // Messages waiting for their time do not count: a message typed now goes now.
    const startNow = !running.has(conversationId) && !conv.queuePaused && !this.hasReady(conversationId);
    if (startNow) {
      await this.deps.begin(conv, text, clientId ?? null, null, attachments, voice, schedule);
      return { queued: false };
    }
    const queued = pending.countPending(conversationId);
    // Refused before anything is written: the queued messages stay as they were.
    if (queued >= this.deps.queueMax) throw new QueueFull(conversationId, this.deps.queueMax);
    const row: PendingRow = { id: this.deps.ids(), text, clientId: clientId ?? null, ...(attachments.length ? { attachments } : {}), ...(voice ? { voice } : {}), ...(schedule ? { schedule } : {}) };
    tx.transaction(() => {
      pending.appendPending(conversationId, row, this.deps.clock.now());
      // A plan-limit hold outlasts new messages: only its reset or the owner's resume lifts it.
      if (conv.queuePaused && !held) conversations.setQueuePaused(conversationId, false);
    });
    this.deps.reads.publishQueue(conversationId);
    void this.advance(conversationId);
    return { queued: true, pending_id: row.id };
  }

  /** A message with a time: queued in order, held until then; the queue's pause is left as it is (it is not a "go now"). */
  private sendLater(conv: Conversation, row: PendingRow & { later: LaterRef }): SendMessageAck {
    if (this.deps.pending.countPending(conv.id) >= this.deps.queueMax) throw new QueueFull(conv.id, this.deps.queueMax);
    const now = this.deps.clock.now();
    this.deps.pending.appendPending(conv.id, row, now);
    this.deps.audit("user", "chat_later_scheduled", { conversation_id: conv.id, pending_id: row.id, send_at: new Date(row.later.at).toISOString(), when: row.later.when }, now);
    this.deps.later.rearm();
    this.deps.reads.publishQueue(conv.id);
    return { queued: true, pending_id: row.id, later: toLaterMark(row.later, now) };
  }

  /** Whether any queued message may run now (one waiting for its time may not). */
  private hasReady(conversationId: string): boolean {
    const now = this.deps.clock.now();
    return this.deps.pending.listPending(conversationId).some((r) => isReady(r, now));
  }

  /**
   * "Send now" for a queued message: steer it into the running turn, or, idle, run it now
   * (ahead of the rest of the queue, unpausing it).
   */
  async sendNow(conversationId: string, pendingId: string): Promise<SendMessageAck> {
    const conv = requireConversation(this.deps.conversations, conversationId);
    const row = this.deps.pending.listPending(conversationId).find((r) => r.id === pendingId);
    if (!row) throw new PendingNotFound(conversationId, pendingId);
    // Sending it as it stands would lose the edit someone is making to it: that editor decides.
    this.deps.edits.refuseIfHeld(conversationId, pendingId);
    // A message sent later goes now: its time is dropped (and the alarm follows).
    if (row.later) this.deps.audit("user", "chat_later_changed", { conversation_id: conversationId, pending_id: row.id, send_at: null, by: "send_now" }, this.deps.clock.now());
    const turn = this.deps.running.get(conversationId);
    // A steer carries text only: a message with files goes first in line instead, its files kept.
    if (turn && !row.attachments?.length) return this.deps.steering.steer(conv, turn, { text: row.text, clientId: row.clientId, pendingId: row.id, voice: row.voice ?? false });
    this.placeFirst(conversationId, row);
    if (turn) {
      this.deps.reads.publishQueue(conversationId);
      return { queued: true, pending_id: row.id };
    }
    this.deps.reads.publishQueue(conversationId);
    await this.advance(conversationId);
    return { queued: false };
  }

  /**
   * Replace the ordered queue (drop, reorder, edit, resume). Unpauses and starts the head
   * when idle — unless `resume` is false, which lets the owner tidy a held queue first.
   */
  async set(conversationId: string, items: readonly PendingItemIn[], resume = true, seen?: readonly string[], holdId?: string): Promise<PendingQueueOut> {
    const { tx, conversations, pending, edits } = this.deps;
    const conv = requireConversation(conversations, conversationId);
    const queued = pending.listPending(conversationId);
    const existing = new Map(queued.map((r) => [r.id, r]));
    const kept = new Set<string>();
    const rows = items.flatMap((item, i): PendingRow[] => {
      const field = `pending[${i}].${item.send_when ? "send_when" : "send_at"}`;
      if (item.id === undefined) return [withLater({ id: this.deps.ids(), text: item.text!, clientId: null }, this.timeOf(conv.agentKey, undefined, item, field))];
      const row = kept.has(item.id) ? undefined : existing.get(item.id);
      // An id no longer queued ran or was removed meanwhile: a stale view must never queue it
      // again (it would run twice). The client sends new text without an id.
      if (!row) return [];
      kept.add(row.id);
      // No text = keep the stored one (a client holding only a queue_changed preview sends just the id).
      const text = item.text ?? row.text;
      // An edit changes the text; the files queued with it stay with it.
      return [withLater({ ...row, text, clientId: row.text === text ? row.clientId : null }, this.timeOf(conv.agentKey, row.later, item, field))];
    });
    // A message queued since the client's view (another surface) is not the client's to drop.
    if (seen) {
      const known = new Set(seen);
      rows.push(...queued.filter((r) => !known.has(r.id) && !kept.has(r.id)));
    }
    if (rows.length > this.deps.queueMax) throw new QueueFull(conversationId, this.deps.queueMax);
    tx.transaction(() => {
      pending.replacePending(conversationId, rows, this.deps.clock.now());
      if (resume || rows.length === 0) conversations.setQueuePaused(conversationId, false);
    });
    this.auditTimes(conversationId, queued, rows);
    if (resume || rows.length === 0) this.deps.parking.lift(conversationId);
    // Saving an edit ends its hold in the same step, so the edited text runs where it stood;
    // a message dropped from the queue takes its hold with it.
    if (holdId) edits.release(holdId);
    edits.retain(conversationId, new Set(rows.map((r) => r.id)));
    this.deps.reads.publishQueue(conversationId);
    await this.advance(conversationId);
    return this.deps.reads.pending(conversationId);
  }

  /** Unpause a held queue and run its head when idle (what any new message does, without one). */
  async resume(conversationId: string): Promise<void> {
    const conv = requireConversation(this.deps.conversations, conversationId);
    this.deps.parking.lift(conversationId);
    if (!conv.queuePaused) return;
    this.deps.conversations.setQueuePaused(conversationId, false);
    this.deps.reads.publishQueue(conversationId);
    await this.advance(conversationId);
  }

  /** Put the row first in the queue and unpause it (a refused steer, or "Send now" while idle); a time it had is dropped. */
  placeFirst(conversationId: string, row: PendingRow): void {
    const { tx, pending } = this.deps;
    tx.transaction(() => {
      const rest = pending.listPending(conversationId).filter((r) => r.id !== row.id);
      pending.replacePending(conversationId, [withLater(row, undefined), ...rest], this.deps.clock.now());
      this.deps.conversations.setQueuePaused(conversationId, false);
    });
    if (row.later) this.deps.later.rearm();
  }

  /**
   * The time a saved queue item carries: `send_at` omitted keeps the one it had (even one now
   * due), null drops it, an unchanged time stays as it was; a new time is checked like a send's.
   */
  private timeOf(agentKey: string, current: LaterRef | undefined, item: PendingItemIn, field: string): LaterRef | undefined {
    if (item.send_when) return this.deps.later.resolve(agentKey, { reset: true }, field) ?? undefined;
    if (item.send_at === undefined) return current;
    if (item.send_at === null) return undefined;
    const at = Date.parse(item.send_at);
    if (current && current.when === "at" && current.at === at) return current;
    return this.deps.later.resolve(agentKey, { at }, field) ?? undefined;
  }

  /** A saved queue's time changes, audited like the queue's other actions; the one alarm follows them. */
  private auditTimes(conversationId: string, before: readonly PendingRow[], after: readonly PendingRow[]): void {
    const now = this.deps.clock.now();
    const was = new Map(before.map((r) => [r.id, r.later]));
    const is = new Map(after.map((r) => [r.id, r.later]));
    const record = (action: "chat_later_scheduled" | "chat_later_changed" | "chat_later_cancelled", id: string, later: LaterRef | undefined) =>
      this.deps.audit("user", action, { conversation_id: conversationId, pending_id: id, send_at: later ? new Date(later.at).toISOString() : null, ...(later ? { when: later.when } : {}) }, now);
    let changed = false;
    for (const [id, old] of was) {
      if (!old) continue;
      if (!is.has(id)) record("chat_later_cancelled", id, old);
      else if (is.get(id)?.at !== old.at || is.get(id)?.when !== old.when) record("chat_later_changed", id, is.get(id));
      else continue;
      changed = true;
    }
    for (const [id, now] of is) {
      if (!now || was.get(id)) continue;
      record(was.has(id) ? "chat_later_changed" : "chat_later_scheduled", id, now);
      changed = true;
    }
    if (changed) this.deps.later.rearm();
  }

  /** After any turn ends (web, CLI or channel), run the queue's head as its own turn. */
  async advance(conversationId: string): Promise<void> {
    const { conversations, pending } = this.deps;
    if (this.deps.running.has(conversationId)) return;
    const conv = conversations.getConversation(conversationId);
    if (!conv || conv.queuePaused) return;
    // The first message that may run now: one waiting for its time does not hold up those behind it.
    const now = this.deps.clock.now();
    const head = pending.listPending(conversationId).find((r) => isReady(r, now));
    if (!head) return;
    // Being steered right now: the steer's outcome decides (it re-runs advance when settled).
    if (this.deps.steering.isSteering(head.id)) return;
    // Being edited: the queue stops in front of it (order is kept); the save, release or lapse re-runs advance.
    if (this.deps.edits.isHeld(head.id)) return;
    try {
      await this.deps.begin(conv, head.text, head.clientId, head.id, head.attachments, head.voice ?? false, head.schedule);
    } catch (err) {
      // The head stays where it was; the queue waits for the owner instead of spinning.
      conversations.setQueuePaused(conversationId, true);
      this.deps.reads.publishQueue(conversationId);
      const code = err instanceof DomainError ? err.code : "TURN_START_FAILED";
      const raw = err instanceof Error ? err.message : String(err);
      const message = this.deps.scrubber ? this.deps.scrubber.scrub(raw) : raw;
      this.deps.hub.publishIfLive(conversationId, { type: "turn_error", code, message: `the queued message could not start: ${message}` });
      this.deps.logger.warn("queued turn failed to start", { conversation: conversationId, code });
    }
  }

  /**
   * Whether a message with this client id was already taken (it ran, runs, or waits): a channel
   * asks before costly work for a redelivered update (a voice note is transcribed, a photo fetched, only once).
   */
  alreadySent(conversationId: string, clientId: string): boolean {
    return this.findRepeat(conversationId, clientId) !== null;
  }

  /** A client id already seen: the message ran (or runs), or waits in the queue. */
  private findRepeat(conversationId: string, clientId: string): SendMessageAck | null {
    if (this.deps.running.get(conversationId)?.clientId === clientId) return { queued: false };
    if (this.deps.messages.findMessageByClientId(conversationId, clientId)) return { queued: false };
    const row = this.deps.pending.findPendingByClientId(conversationId, clientId);
    return row ? { queued: true, pending_id: row.id } : null;
  }
}

/** The row with `later` as its time (none: the key is left out, so the row reads as before). */
function withLater(row: PendingRow, later: LaterRef | undefined): PendingRow {
  const { later: _dropped, ...plain } = row;
  return later ? { ...plain, later } : plain;
}
