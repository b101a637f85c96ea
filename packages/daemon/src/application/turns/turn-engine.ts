import { PENDING_PREVIEW_CHARS, type AgentLimitsOut, type Delivery, type EditHoldOut, type PendingItemIn, type QuestionAnswer, type QuestionListOut, type QueueHold, type ConversationContextOut, type PendingQueueOut, type SendMessageAck } from "@coffer/protocol";
import { stringField, withSessionId } from "../../domain/agent-config.js";
import { deriveTitle, type Conversation } from "../../domain/conversation.js";
import { ConversationNotFound, DomainError, PendingNotFound, QueueFull } from "../../domain/errors.js";
import type { AgentRegistry } from "../agent-registry.js";
import { toConversationOut, toPendingItems, toPendingPreviews } from "../presenters.js";
import type { AdapterServices, ChatStore, Clock, IdGenerator, Logger, PendingRow, TurnFailure } from "../ports.js";
import type { BusHub } from "./bus-hub.js";
import type { BusSubscriber } from "./live-bus.js";
import type { ConversationListEvents } from "./list-events.js";
import { QuestionNotFound } from "../../domain/question-errors.js";
import { PlanLimitsBook } from "../limits/plan-limits-book.js";
import { QueueHolds, type HoldStore } from "./queue-holds.js";
import { DEFAULT_EDIT_LEASE_MS, EditHolds } from "./edit-holds.js";
import type { OwnerAlerts } from "../alerts/owner-alerts.js";
import { MemoryContextStore, type ContextUsageStore } from "./context-usage.js";
import { ActiveTurn, runTurn, type TurnTimings } from "./turn-runner.js";
import { QuestionCancelled, TurnQuestions } from "./turn-questions.js";
import type { SecretScrubber } from "../secrets/secret-scrubber.js";
import { historyBefore, seededPrompt, type HistoryCondenser } from "../agent-sessions/session-seed.js";

export interface TurnEngineDeps {
  readonly store: ChatStore;
  readonly registry: AgentRegistry;
  readonly hub: BusHub;
  readonly listEvents: ConversationListEvents;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  readonly timings: TurnTimings;
  /** The most messages one conversation may queue (COFFER_QUEUE_MAX). */
  readonly queueMax?: number;
  readonly limits?: PlanLimitsBook;
  /** Where plan-limit holds outlive a restart (SQLite); in memory when absent. */
  readonly holdStore?: HoldStore;
  /** Tells the owner when a turn ends, fails or asks, and when a queue parks or resumes. */
  readonly alerts?: OwnerAlerts;
  /** Each conversation's latest context usage (SQLite); in memory when absent. */
  readonly contextUsage?: ContextUsageStore;
  /** Scrubs known credential values from the agents' output before it is stored, streamed or relayed. */
  readonly scrubber?: SecretScrubber;
  /** Condenses older messages when a lost agent session is reseeded (the internal-default model); absent = trimmed text. */
  readonly condense?: HistoryCondenser;
  /** How long an edit hold on a queued message lasts unless renewed (COFFER_QUEUE_EDIT_LEASE_MS). */
  readonly editLeaseMs?: number;
}

export const DEFAULT_QUEUE_MAX = 100;
/** What a reply still streaming when the daemon stopped ends as, at the next start. */
const DAEMON_RESTART: TurnFailure = { code: "daemon_restart", message: "the daemon stopped before this reply finished" };

/** What restart recovery found: conversations whose reply was cut off, and whose queue it held. */
export interface RecoveredState {
  readonly interrupted: readonly string[];
  readonly paused: readonly string[];
}

/** A message on its way into a running turn: new (pendingId null) or a queued row ("Send now"). */
interface SteerMessage {
  readonly text: string;
  readonly clientId: string | null;
  readonly pendingId: string | null;
}

/**
 * The heart: per conversation at most one turn in flight, a durable FIFO queue behind
 * it, and every event on the conversation's live bus. Surfaces (HTTP, CLI, channels)
 * all come through here.
 */
export class TurnEngine {
  private readonly active = new Map<string, ActiveTurn>();
  /** Each conversation's latest turn's questions, kept after the turn so a late answer learns who won. */
  private readonly questions = new Map<string, TurnQuestions>();
  /** Queued rows on their way into a running turn ("Send now"): the queue must not also start them. */
  private readonly steeringRows = new Set<string>();

  private readonly queueMax: number;
  /** The agents' latest plan limits (GET /chat/agents). */
  readonly limits: PlanLimitsBook;
  private readonly holds: QueueHolds;
  /** Queued messages a surface is editing: the queue stops in front of them (issue 22 B). */
  private readonly edits: EditHolds;
  private readonly contextUsage: ContextUsageStore;

  constructor(private readonly deps: TurnEngineDeps) {
    this.queueMax = deps.queueMax ?? DEFAULT_QUEUE_MAX;
    this.contextUsage = deps.contextUsage ?? new MemoryContextStore();
    this.limits = deps.limits ?? new PlanLimitsBook();
    this.holds = new QueueHolds(() => deps.clock.now(), (id) => {
      if (!deps.store.getConversation(id)) return; // deleted while held
      this.auditHold(id, "chat_queue_unparked", { by: "reset" });
      void this.resume(id).catch(() => undefined); // the conversation may be gone
    }, deps.holdStore);
    // A lapsed edit (its page closed, its network gone) lets the queue run on by itself.
    this.edits = new EditHolds(() => deps.clock.now(), deps.editLeaseMs ?? DEFAULT_EDIT_LEASE_MS, deps.ids, (id) => {
      this.publishQueue(id);
      void this.advance(id).catch(() => undefined);
    });
  }

  isRunning(conversationId: string): boolean {
    return this.active.has(conversationId);
  }

  get runningCount(): number {
    return this.active.size;
  }

  /**
   * Start now when idle, unpaused and nothing queued; otherwise queue. Always unpauses.
   * `steer` while a turn runs hands the text to that turn instead (falling back to the
   * queue's head); idle, it is a plain send.
   */
  async send(conversationId: string, text: string, clientId?: string, delivery: Delivery = "queue"): Promise<SendMessageAck> {
    const { store } = this.deps;
    const conv = this.conversation(conversationId);
    if (clientId) {
      const repeat = this.findRepeat(conversationId, clientId);
      if (repeat) return repeat;
    }
    const running = this.active.get(conversationId);
    if (delivery === "steer" && running) return this.steer(conv, running, { text, clientId: clientId ?? null, pendingId: null });
    const held = this.holds.get(conversationId) !== null;
    const startNow = !this.active.has(conversationId) && !conv.queuePaused && store.countPending(conversationId) === 0;
    if (startNow) {
      await this.beginTurn(conv, text, clientId ?? null, null);
      return { queued: false };
    }
    const queued = store.countPending(conversationId);
    // Refused before anything is written: the queued messages stay as they were.
    if (queued >= this.queueMax) throw new QueueFull(conversationId, this.queueMax);
    const row: PendingRow = { id: this.deps.ids(), text, clientId: clientId ?? null };
    store.transaction(() => {
      store.appendPending(conversationId, row, this.deps.clock.now());
      // A plan-limit hold outlasts new messages: only its reset or the owner's resume lifts it.
      if (conv.queuePaused && !held) store.setQueuePaused(conversationId, false);
    });
    this.publishQueue(conversationId);
    void this.advance(conversationId);
    return { queued: true, pending_id: row.id };
  }

  /**
   * "Send now" for a queued message: steer it into the running turn, or, idle, run it now
   * (ahead of the rest of the queue, unpausing it).
   */
  async steerPending(conversationId: string, pendingId: string): Promise<SendMessageAck> {
    const { store } = this.deps;
    const conv = this.conversation(conversationId);
    const row = store.listPending(conversationId).find((r) => r.id === pendingId);
    if (!row) throw new PendingNotFound(conversationId, pendingId);
    // Sending it as it stands would lose the edit someone is making to it: that editor decides.
    this.edits.refuseIfHeld(conversationId, pendingId);
    const running = this.active.get(conversationId);
    if (running) return this.steer(conv, running, { text: row.text, clientId: row.clientId, pendingId: row.id });
    store.transaction(() => {
      this.moveToHead(conversationId, row);
      store.setQueuePaused(conversationId, false);
    });
    this.publishQueue(conversationId);
    await this.advance(conversationId);
    return { queued: false };
  }

  pending(conversationId: string): PendingQueueOut {
    const conv = this.conversation(conversationId);
    return { pending: this.marked(toPendingItems(this.deps.store.listPending(conversationId))), paused: conv.queuePaused, ...this.holdField(conversationId) };
  }

  /**
   * Take or renew an edit hold on a queued message (`by`: the surface the caller verified). The
   * queue does not start it, nor anything behind it, until the hold is released (a save, a
   * cancel) or lapses. Another editor's hold refuses it with PENDING_BEING_EDITED.
   */
  holdPending(conversationId: string, pendingId: string, by: string, holdId?: string): EditHoldOut {
    this.conversation(conversationId);
    if (!this.deps.store.listPending(conversationId).some((r) => r.id === pendingId)) throw new PendingNotFound(conversationId, pendingId);
    const wasHeld = this.edits.isHeld(pendingId);
    const taken = this.edits.take(conversationId, pendingId, by, holdId);
    // Only a new hold changes what the queue shows: a renewal every few seconds is not news.
    if (!wasHeld) this.publishQueue(conversationId);
    return { hold_id: taken.holdId, expires_at: new Date(taken.expiresAt).toISOString(), lease_ms: this.edits.leaseMs };
  }

  /** End an edit hold (cancelled, or its page is leaving); the queue runs on. One already gone is fine. */
  async releasePending(conversationId: string, pendingId: string, holdId: string): Promise<void> {
    this.conversation(conversationId);
    if (this.edits.release(holdId, pendingId) === null) return;
    this.publishQueue(conversationId);
    await this.advance(conversationId);
  }

  /**
   * Replace the ordered queue (drop, reorder, edit, resume). Unpauses and starts the head
   * when idle — unless `resume` is false, which lets the owner tidy a held queue first.
   */
  async setPending(
    conversationId: string,
    items: readonly PendingItemIn[],
    resume = true,
    seen?: readonly string[],
    holdId?: string,
  ): Promise<PendingQueueOut> {
    const { store } = this.deps;
    this.conversation(conversationId);
    const queued = store.listPending(conversationId);
    const existing = new Map(queued.map((r) => [r.id, r]));
    const kept = new Set<string>();
    const rows = items.flatMap((item): PendingRow[] => {
      if (item.id === undefined) return [{ id: this.deps.ids(), text: item.text!, clientId: null }];
      const row = kept.has(item.id) ? undefined : existing.get(item.id);
      // An id no longer queued ran or was removed meanwhile: a stale view must never queue it
      // again (it would run twice). The client sends new text without an id.
      if (!row) return [];
      kept.add(row.id);
      // No text = keep the stored one (a client holding only a queue_changed preview sends just the id).
      const text = item.text ?? row.text;
      return [{ id: row.id, text, clientId: row.text === text ? row.clientId : null }];
    });
    // A message queued since the client's view (another surface) is not the client's to drop.
    if (seen) {
      const known = new Set(seen);
      rows.push(...queued.filter((r) => !known.has(r.id) && !kept.has(r.id)));
    }
    if (rows.length > this.queueMax) throw new QueueFull(conversationId, this.queueMax);
    store.transaction(() => {
      store.replacePending(conversationId, rows, this.deps.clock.now());
      if (resume || rows.length === 0) store.setQueuePaused(conversationId, false);
    });
    if ((resume || rows.length === 0) && this.holds.clear(conversationId)) this.auditHold(conversationId, "chat_queue_unparked", { by: "owner" });
    // Saving an edit ends its hold in the same step, so the edited text runs where it stood;
    // a message dropped from the queue takes its hold with it.
    if (holdId) this.edits.release(holdId);
    this.edits.retain(conversationId, new Set(rows.map((r) => r.id)));
    this.publishQueue(conversationId);
    await this.advance(conversationId);
    return this.pending(conversationId);
  }

  /** Unpause a held queue and run its head when idle (what any new message does, without one). */
  async resume(conversationId: string): Promise<void> {
    const conv = this.conversation(conversationId);
    if (this.holds.clear(conversationId)) this.auditHold(conversationId, "chat_queue_unparked", { by: "owner" });
    if (!conv.queuePaused) return;
    this.deps.store.setQueuePaused(conversationId, false);
    this.publishQueue(conversationId);
    await this.advance(conversationId);
  }

  /** Stop the running turn, keep its partial output, and hold the queue. Idle: a no-op. */
  async interrupt(conversationId: string): Promise<void> {
    this.conversation(conversationId);
    const turn = this.active.get(conversationId);
    if (!turn) return;
    if (!turn.stopReason && this.deps.store.listPending(conversationId).length > 0) {
      this.deps.store.setQueuePaused(conversationId, true);
      this.publishQueue(conversationId);
    }
    turn.stop("interrupt", this.deps.timings.stopDeadlineMs);
    await turn.done;
  }

  /** How full the conversation's context was after its latest turn that reported it. */
  contextOf(conversationId: string): ConversationContextOut {
    this.conversation(conversationId);
    return { context: this.contextUsage.get(conversationId) };
  }

  /** An agent's plan limits as they stand now (a window past its reset reads unknown). */
  limitsOf(agentKey: string): AgentLimitsOut | null {
    return this.limits.get(agentKey, this.deps.clock.now());
  }

  /** The latest turn's questions (what a surface that missed the events shows). */
  questionsOf(conversationId: string): QuestionListOut {
    this.conversation(conversationId);
    return { questions: this.questions.get(conversationId)?.list() ?? [] };
  }

  /**
   * The owner answers the running turn's question; the first answer wins (a second:
   * QUESTION_ALREADY_ANSWERED). `by` is the surface the caller verified (surfaceOf); what a
   * client said about itself is only a `label` in the audit row.
   */
  answer(conversationId: string, questionId: string, answers: readonly QuestionAnswer[], by: string, label?: string): void {
    this.conversation(conversationId);
    const questions = this.questions.get(conversationId);
    if (!questions) throw new QuestionNotFound(conversationId, questionId);
    questions.answer(questionId, answers, by);
    const details = { conversation_id: conversationId, question_id: questionId, by, ...(label ? { label } : {}) };
    this.deps.store.appendAudit("user", "question_answered", details, this.deps.clock.now());
  }

  /** For delete: the running turn is cancelled and leaves nothing behind, not even events. */
  async discard(conversationId: string): Promise<void> {
    const turn = this.active.get(conversationId);
    if (!turn) return;
    turn.stop("discard", this.deps.timings.stopDeadlineMs);
    await turn.done;
  }

  /** Restart recovery: no row stays streaming; a surviving queue waits for the owner. */
  recover(): RecoveredState {
    const { store } = this.deps;
    return store.transaction(() => {
      const interrupted = store.failStreamingMessages(DAEMON_RESTART);
      const paused = store.conversationsWithPending();
      for (const id of paused) store.setQueuePaused(id, true);
      return { interrupted, paused };
    });
  }

  /**
   * After start (and recover): the plan-limit holds stored before the restart get their timers
   * again; one whose reset passed meanwhile lifts at once and its queue runs. Returns how many.
   */
  rearmHolds(): number {
    return this.holds.rearm();
  }

  async shutdown(): Promise<void> {
    this.holds.stopTimers();
    this.edits.stopTimers();
    const turns = [...this.active.values()];
    for (const t of turns) t.stop("shutdown", this.deps.timings.stopDeadlineMs);
    await Promise.allSettled(turns.map((t) => t.done));
  }

  /** Attach to the conversation's live bus (replay, then live). Returns the detach function. */
  subscribe(conversationId: string, subscriber: BusSubscriber, cursor?: string): () => void {
    this.conversation(conversationId);
    return this.deps.hub.subscribe(conversationId, subscriber, cursor, (bus) => {
      if (!bus.hasQueueSnapshot) {
        const conv = this.conversation(conversationId);
        bus.publish({
          type: "queue_changed",
          pending: this.marked(toPendingPreviews(this.deps.store.listPendingPreviews(conversationId, PENDING_PREVIEW_CHARS))),
          paused: conv.queuePaused,
          ...this.holdField(conversationId),
        });
      }
    });
  }

  /** Publish the queue as it is now to whoever is watching. */
  publishQueue(conversationId: string): void {
    const conv = this.deps.store.getConversation(conversationId);
    if (!conv) return;
    this.deps.hub.publishIfLive(conversationId, {
      type: "queue_changed",
      pending: this.marked(toPendingPreviews(this.deps.store.listPendingPreviews(conversationId, PENDING_PREVIEW_CHARS))),
      paused: conv.queuePaused,
      ...this.holdField(conversationId),
    });
  }

  private async beginTurn(
    conv: Conversation,
    text: string,
    clientId: string | null,
    pendingId: string | null,
  ): Promise<ActiveTurn> {
    const { store, registry, clock, ids } = this.deps;
    // Claim the slot before the first await: one turn per conversation, no races.
    const turn = new ActiveTurn(ids(), conv.id, clientId);
    this.active.set(conv.id, turn);
    let committed;
    let adapter;
    try {
      adapter = await registry.get(conv.agentKey).buildAdapter(conv, this.adapterServices(conv.id));
      if (turn.stopReason) throw new ConversationNotFound(conv.id);
      turn.adapter = adapter;
      committed = store.transaction(() => {
        const now = clock.now();
        if (pendingId) store.deletePending(pendingId);
        const user = store.insertMessage({
          id: ids(),
          conversationId: conv.id,
          role: "user",
          content: [{ type: "text", text }],
          status: "complete",
          modelId: null,
          clientId,
          now,
        });
        const fresh = store.getConversation(conv.id);
        if (fresh && !fresh.titleSetByOwner && store.countUserMessages(conv.id) === 1) {
          const title = deriveTitle(text);
          if (title) store.renameConversation(conv.id, title, false, now);
        }
        const assistant = store.insertMessage({
          id: ids(),
          conversationId: conv.id,
          role: "assistant",
          content: [],
          status: "streaming",
          modelId: adapter!.model ?? stringField(conv.agentConfig, "model") ?? null,
          clientId: null,
          now,
        });
        store.touchConversation(conv.id, now);
        return { user, assistantId: assistant.id };
      });
    } catch (err) {
      if (this.active.get(conv.id) === turn) this.active.delete(conv.id);
      throw err;
    }

    const bus = this.deps.hub.acquire(conv.id);
    bus.beginTurn();
    turn.questions = new TurnQuestions(conv.id, (event) => {
      // Into the reply's content first (what is stored), then out live: the same fold, the same order.
      if (event.type === "question" || event.type === "question_answered") turn.foldQuestion?.(event);
      bus.publish(event);
      if (event.type === "question") this.deps.alerts?.questionAsked(store.getConversation(conv.id) ?? conv, event.questions);
    }, ids);
    this.questions.set(conv.id, turn.questions);
    bus.publish({
      type: "turn_start",
      turn_id: turn.turnId,
      user_message: committed.user,
      assistant_message_id: committed.assistantId,
      client_id: clientId,
    });
    if (pendingId) this.publishQueue(conv.id);
    this.announce(conv.id);

    const fresh = store.getConversation(conv.id) ?? conv;
    turn.done = runTurn({ ...this.deps, limits: this.limits, contextUsage: this.contextUsage }, {
      turn,
      adapter,
      input: { conversation: fresh, text },
      assistantMessageId: committed.assistantId,
      bus,
      fallbackModel: stringField(fresh.agentConfig, "model") ?? null,
    })
      .catch((err: unknown) => this.deps.logger.error("turn finalisation failed", { conversation: conv.id, err: String(err) }))
      .finally(() => this.afterTurn(turn));
    return turn;
  }

  private afterTurn(turn: ActiveTurn): void {
    if (this.active.get(turn.conversationId) === turn) this.active.delete(turn.conversationId);
    if (turn.stopReason === "discard") {
      this.questions.delete(turn.conversationId);
      return;
    }
    const bus = this.deps.hub.peek(turn.conversationId);
    bus?.endTurn();
    this.deps.hub.release(turn.conversationId);
    this.announce(turn.conversationId);
    const conv = this.deps.store.getConversation(turn.conversationId);
    if (conv) this.deps.alerts?.turnEnded(conv, turn.outcome, turn.stopReason);
    if (turn.outcome?.type === "turn_error" && turn.outcome.code === "plan_limit") this.parkOnPlanLimit(turn.conversationId);
    if (turn.stopReason !== "shutdown") void this.advance(turn.conversationId);
  }

  /** After any turn ends (web, CLI or channel), run the queue's head as its own turn. */
  private async advance(conversationId: string): Promise<void> {
    const { store } = this.deps;
    if (this.active.has(conversationId)) return;
    const conv = store.getConversation(conversationId);
    if (!conv || conv.queuePaused) return;
    const head = store.listPending(conversationId)[0];
    if (!head) return;
    // Being steered right now: the steer's outcome decides (it re-runs advance when settled).
    if (this.steeringRows.has(head.id)) return;
    // Being edited: the queue stops in front of it (order is kept); the save, release or lapse re-runs advance.
    if (this.edits.isHeld(head.id)) return;
    try {
      await this.beginTurn(conv, head.text, head.clientId, head.id);
    } catch (err) {
      // The head stays where it was; the queue waits for the owner instead of spinning.
      store.setQueuePaused(conversationId, true);
      this.publishQueue(conversationId);
      const code = err instanceof DomainError ? err.code : "TURN_START_FAILED";
      const raw = err instanceof Error ? err.message : String(err);
      const message = this.deps.scrubber ? this.deps.scrubber.scrub(raw) : raw;
      this.deps.hub.publishIfLive(conversationId, {
        type: "turn_error",
        code,
        message: `the queued message could not start: ${message}`,
      });
      this.deps.logger.warn("queued turn failed to start", { conversation: conversationId, code });
    }
  }

  /**
   * One steer, in order with any other: the adapter takes the text (then the reply splits
   * around it) or it goes to the head of the queue with a steer_fallback — exactly one of
   * the two, so the message is never lost and never reaches the agent twice.
   */
  private steer(conv: Conversation, turn: ActiveTurn, msg: SteerMessage): Promise<SendMessageAck> {
    if (msg.pendingId) this.steeringRows.add(msg.pendingId);
    const run = turn.steering
      .then(async (): Promise<SendMessageAck> => {
        const refusal = await this.offerSteer(turn, msg.text);
        if (!refusal) {
          this.placeSteered(conv.id, turn, msg);
          return { queued: false, steered: true };
        }
        return this.steerFallback(conv, msg, refusal);
      })
      .finally(() => {
        if (!msg.pendingId) return;
        this.steeringRows.delete(msg.pendingId);
        void this.advance(conv.id);
      });
    turn.steering = run.catch(() => undefined);
    return run;
  }

  /** Null when the running turn took the text; otherwise why not. */
  private async offerSteer(turn: ActiveTurn, text: string): Promise<string | null> {
    if (turn.stopReason || !turn.split) return "turn_ended";
    if (!turn.adapter?.steer) return "not_steerable";
    try {
      return (await turn.adapter.steer(text)) ? null : "turn_ended";
    } catch (err) {
      this.deps.logger.warn("steer failed", { conversation: turn.conversationId, err: String(err) });
      return "steer_failed";
    }
  }

  private placeSteered(conversationId: string, turn: ActiveTurn, msg: SteerMessage): void {
    const { store, clock, ids } = this.deps;
    const split = turn.split;
    store.transaction(() => {
      if (msg.pendingId) store.deletePending(msg.pendingId);
      if (split) {
        split(msg.text, msg.clientId);
        return;
      }
      // The agent took it as its turn was ending: it follows that reply in the timeline.
      const now = clock.now();
      store.insertMessage({
        id: ids(),
        conversationId,
        role: "user",
        content: [{ type: "text", text: msg.text }],
        status: "complete",
        modelId: null,
        clientId: msg.clientId,
        now,
        steered: true,
      });
      store.touchConversation(conversationId, now);
    });
    if (msg.pendingId) this.publishQueue(conversationId);
  }

  private steerFallback(conv: Conversation, msg: SteerMessage, reason: string): SendMessageAck {
    const { store } = this.deps;
    const queued = store.listPending(conv.id);
    const row = msg.pendingId ? queued.find((r) => r.id === msg.pendingId) : undefined;
    if (msg.pendingId && !row) return { queued: false }; // it ran or was removed meanwhile: never queue it again
    if (!row && queued.length >= this.queueMax) throw new QueueFull(conv.id, this.queueMax);
    const head: PendingRow = row ?? { id: this.deps.ids(), text: msg.text, clientId: msg.clientId };
    store.transaction(() => {
      this.moveToHead(conv.id, head);
      store.setQueuePaused(conv.id, false);
    });
    this.deps.hub.publishIfLive(conv.id, { type: "steer_fallback", text: msg.text, reason, pending_id: head.id });
    this.publishQueue(conv.id);
    void this.advance(conv.id);
    return { queued: true, pending_id: head.id };
  }

  private moveToHead(conversationId: string, row: PendingRow): void {
    const rest = this.deps.store.listPending(conversationId).filter((r) => r.id !== row.id);
    this.deps.store.replacePending(conversationId, [row, ...rest], this.deps.clock.now());
  }

  /** Each item someone is editing carries `editing`; the others read exactly as before. */
  private marked<T extends { readonly id: string }>(items: T[]): T[] {
    return items.map((item) => {
      const editing = this.edits.mark(item.id);
      return editing ? { ...item, editing } : item;
    });
  }

  /** `hold` only while there is one, so an unheld queue reads exactly as before. */
  private holdField(conversationId: string): { hold?: QueueHold } {
    const hold = this.holds.get(conversationId);
    return hold ? { hold } : {};
  }

  /** The agent hit its plan limit: hold the queue until the reset it reported, when it did. */
  private parkOnPlanLimit(conversationId: string): void {
    const conv = this.deps.store.getConversation(conversationId);
    if (!conv) return;
    const until = this.limits.resetAt(conv.agentKey, this.deps.clock.now());
    if (!until) return;
    this.deps.store.setQueuePaused(conversationId, true);
    this.holds.park(conversationId, until);
    this.auditHold(conversationId, "chat_queue_parked", { agent_key: conv.agentKey, until: until.toISOString(), reason: "plan_limit" });
    this.publishQueue(conversationId);
  }

  private auditHold(conversationId: string, action: "chat_queue_parked" | "chat_queue_unparked", details: Record<string, unknown>): void {
    const conv = this.deps.store.getConversation(conversationId);
    if (conv && this.deps.alerts) {
      const hold = action === "chat_queue_parked" ? this.holds.get(conversationId) : null;
      this.deps.alerts.holdChanged({ conversation: conv, hold, by: hold ? null : details.by === "owner" ? "owner" : "reset" });
    }
    this.deps.store.appendAudit(action === "chat_queue_parked" ? "agent" : details.by === "owner" ? "user" : "agent", action, { conversation_id: conversationId, ...details }, this.deps.clock.now());
  }

  private findRepeat(conversationId: string, clientId: string): SendMessageAck | null {
    const { store } = this.deps;
    if (this.active.get(conversationId)?.clientId === clientId) return { queued: false };
    if (store.findMessageByClientId(conversationId, clientId)) return { queued: false };
    const pending = store.findPendingByClientId(conversationId, clientId);
    return pending ? { queued: true, pending_id: pending.id } : null;
  }

  private adapterServices(conversationId: string): AdapterServices {
    const { store, clock } = this.deps;
    return {
      saveSessionId: (sessionId) => {
        const conv = store.getConversation(conversationId);
        if (conv) store.setAgentConfig(conversationId, withSessionId(conv.agentConfig, sessionId));
      },
      audit: (action, details) => store.appendAudit("agent", action, { conversation_id: conversationId, ...details }, clock.now()),
      // A lost agent session restarts with the conversation so far (application/agent-sessions).
      reseed: (text, signal) =>
        seededPrompt(historyBefore((n) => store.listMessages(conversationId, undefined, n).messages), text, { condense: this.deps.condense, signal }),
      // Looked up at ask time: a warm agent session outlives the turn it was built for.
      ask: (questions, asked) => {
        const turn = this.active.get(conversationId);
        if (!turn?.questions || turn.stopReason) return Promise.reject(new QuestionCancelled("none"));
        // The agent wrote these: scrubbed like its reply before the page, the phone or an alert shows them.
        const shown = this.deps.scrubber ? this.deps.scrubber.scrubValue(questions) : questions;
        return turn.questions.ask(shown, turn.controller.signal, asked?.toolUseId);
      },
    };
  }

  private conversation(id: string): Conversation {
    const conv = this.deps.store.getConversation(id);
    if (!conv) throw new ConversationNotFound(id);
    return conv;
  }

  private announce(conversationId: string): void {
    const conv = this.deps.store.getConversation(conversationId);
    if (conv) {
      this.deps.listEvents.emit({ type: "conversation_updated", conversation: toConversationOut(conv, this.isRunning(conv.id)) });
    }
  }
}
