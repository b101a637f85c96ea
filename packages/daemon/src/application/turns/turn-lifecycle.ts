import type { AttachmentOut } from "@coffer/protocol";
import { stringField, withSessionId } from "../../domain/agent-config.js";
import { deriveTitle, type Conversation } from "../../domain/conversation.js";
import { ConversationNotFound } from "../../domain/errors.js";
import { withAttachmentLines } from "../attachments/attachment-lines.js";

/** The image types both agents' models take as images (others go as files only). */
const NATIVE_IMAGE = /^image\/(png|jpeg|gif|webp)$/;
import type { TurnAlerts } from "./turn-alert-ports.js";
import type { AgentRegistry } from "../agent-registry.js";
import type { AuditSink } from "../audit-log.js";
import type { AdapterServices, Clock, ConversationStore, IdGenerator, Logger, MessageStore, PendingStore, ScheduleRef, Transactor, TurnFailure } from "../ports.js";
import { toConversationOut, type ThreadNouns } from "../presenters.js";
import type { SecretScrubber } from "../secrets/secret-scrubber.js";
import { ActiveTurn, type TurnTimings } from "./active-turn.js";
import type { BusHub } from "./bus-hub.js";
import type { ConversationListEvents } from "./list-events.js";
import type { QuestionDesk } from "./question-desk.js";
import { requireConversation } from "./require-conversation.js";
import type { RunningTurns } from "./running-turns.js";
import { QuestionCancelled, TurnQuestions } from "./turn-questions.js";
import { runTurn, type RunTurnDeps } from "./turn-runner.js";
import type { TurnTimeline } from "./turn-timeline.js";
import type { TurnStarts } from "./turn-starts.js";
import { historyBefore, seededPrompt, type HistoryCondenser } from "../agent-sessions/session-seed.js";

/** What a reply still streaming when the daemon stopped ends as, at the next start. */
const DAEMON_RESTART: TurnFailure = { code: "daemon_restart", message: "the daemon stopped before this reply finished" };

/** What restart recovery found: conversations whose reply was cut off, and whose queue it held. */
export interface RecoveredState {
  readonly interrupted: readonly string[];
  readonly paused: readonly string[];
}

export interface TurnLifecycleDeps {
  readonly tx: Transactor;
  readonly conversations: Pick<ConversationStore, "getConversation" | "renameConversation" | "touchConversation" | "setQueuePaused" | "setAgentConfig">;
  readonly messages: Pick<MessageStore, "countUserMessages" | "failStreamingMessages" | "listMessages">;
  readonly pending: Pick<PendingStore, "listPending" | "deletePending" | "conversationsWithPending">;
  readonly timeline: TurnTimeline;
  /** Where an attachment's bytes are stored (named to the agent); absent = files are named without a path. */
  readonly attachmentPath?: (conversationId: string, attachmentId: string) => string;
  /** An image as the model gets it (downscaled when too big); null = not decodable, sent as a plain file. */
  readonly imageForModel?: (conversationId: string, attachmentId: string, path: string, mediaType: string) => Promise<{ readonly path: string; readonly mediaType: string } | null>;
  readonly audit: AuditSink;
  readonly registry: AgentRegistry;
  readonly hub: BusHub;
  readonly listEvents: ConversationListEvents;
  /** The channel platforms' words for a thread, for the conversation a turn announces. */
  readonly threadNouns?: ThreadNouns;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  readonly timings: TurnTimings;
  readonly alerts?: TurnAlerts;
  /** The turn-started hook (a channel's relay attaches here). */
  readonly starts?: TurnStarts;
  readonly scrubber?: SecretScrubber;
  /** Condenses older messages when a lost agent session is reseeded (the internal-default model); absent = trimmed text. */
  readonly condense?: HistoryCondenser;
  readonly running: RunningTurns;
  readonly questions: QuestionDesk;
  /** What the runner writes through and reports to (the reply's rows, limits, context usage). */
  readonly runner: RunTurnDeps;
  readonly publishQueue: (conversationId: string) => void;
  /** A turn ended on its plan limit: park its queue (PlanLimitParking.park). */
  readonly park: (conversationId: string) => void;
  /** A turn ended: run the queue's head (TurnQueue.advance). */
  readonly advance: (conversationId: string) => Promise<void>;
}

/**
 * A turn from its first row to its last: begin (claim the slot, build the adapter, write the
 * user row and the streaming reply, hand the turn to runTurn), what happens after it ends, and
 * the ways it is cut short — interrupt, discard, shutdown — plus restart recovery.
 */
export class TurnLifecycle {
  constructor(private readonly deps: TurnLifecycleDeps) {}

  isRunning(conversationId: string): boolean {
    return this.deps.running.has(conversationId);
  }

  get runningCount(): number {
    return this.deps.running.count;
  }

  /** Start a turn now; `pendingId` is the queued row it runs (removed in the same transaction). */
  async begin(conv: Conversation, text: string, clientId: string | null, pendingId: string | null, attachments: readonly AttachmentOut[] = [], voice = false, schedule?: ScheduleRef): Promise<ActiveTurn> {
    const { tx, conversations, messages, pending, registry, clock, ids, timeline } = this.deps;
    // Claim the slot before the first await: one turn per conversation, no races.
    const turn = new ActiveTurn(ids(), conv.id, clientId);
    this.deps.running.claim(turn);
    let committed;
    let adapter;
    try {
      adapter = await registry.get(conv.agentKey).buildAdapter(conv, this.adapterServices(conv.id));
      if (turn.stopReason) throw new ConversationNotFound(conv.id);
      turn.adapter = adapter;
      const model = adapter.model ?? stringField(conv.agentConfig, "model") ?? null;
      committed = tx.transaction(() => {
        const now = clock.now();
        if (pendingId) pending.deletePending(pendingId);
        const user = timeline.userMessage(conv.id, text, clientId, now, false, attachments, voice, schedule);
        const fresh = conversations.getConversation(conv.id);
        if (fresh && !fresh.titleSetByOwner && messages.countUserMessages(conv.id) === 1) {
          const title = deriveTitle(text);
          if (title) conversations.renameConversation(conv.id, title, false, now);
        }
        const assistant = timeline.streamingReply(conv.id, model, now);
        conversations.touchConversation(conv.id, now);
        return { user, assistantId: assistant.id };
      });
    } catch (err) {
      this.deps.running.free(turn);
      throw err;
    }

    const bus = this.deps.hub.acquire(conv.id);
    bus.beginTurn();
    turn.questions = new TurnQuestions(conv.id, (event) => {
      // Into the reply's content first (what is stored), then out live: the same fold, the same order.
      if (event.type === "question" || event.type === "question_answered") turn.foldQuestion?.(event);
      bus.publish(event);
      const alerts = this.deps.alerts;
      if (!alerts) return;
      const current = conversations.getConversation(conv.id) ?? conv;
      if (event.type === "question") {
        const askedAt = turn.questions?.askedAt(event.question_id) ?? this.deps.clock.now();
        alerts.questionAsked(current, { questionId: event.question_id, questions: event.questions, askedAt });
      } else if (event.type === "question_answered") alerts.questionClosed(current, event.question_id, event.by ?? null);
    }, ids, () => this.deps.clock.now());
    this.deps.questions.track(conv.id, turn.questions);
    bus.publish({ type: "turn_start", turn_id: turn.turnId, user_message: committed.user, assistant_message_id: committed.assistantId, client_id: clientId });
    if (pendingId) this.deps.publishQueue(conv.id);
    this.announce(conv.id);

    const fresh = conversations.getConversation(conv.id) ?? conv;
    // After turn_start is on the bus: a listener that subscribes now gets it in the bus's replay.
    this.deps.starts?.started(fresh);
    // Each file's copy is placed once here, then named in the text and, for an image, handed over as one.
    const named = this.deps.attachmentPath;
    const paths = new Map(named ? attachments.map((a) => [a.id, named(conv.id, a.id)] as const) : []);
    const fit = this.deps.imageForModel ?? ((_c: string, _a: string, path: string, mediaType: string) => Promise.resolve({ path, mediaType }));
    const images = (
      await Promise.all(attachments.filter((a) => NATIVE_IMAGE.test(a.media_type) && paths.has(a.id)).map((a) => fit(conv.id, a.id, paths.get(a.id)!, a.media_type).catch(() => null)))
    ).filter((image) => image !== null);
    turn.done = runTurn(this.deps.runner, {
      turn,
      adapter,
      input: { conversation: fresh, text: withAttachmentLines(text, attachments, named && ((id) => paths.get(id)!)), images },
      assistantMessageId: committed.assistantId,
      bus,
      fallbackModel: stringField(fresh.agentConfig, "model") ?? null,
    })
      .catch((err: unknown) => this.deps.logger.error("turn finalisation failed", { conversation: conv.id, err: String(err) }))
      .finally(() => this.after(turn));
    return turn;
  }

  /** Stop the running turn, keep its partial output, and hold the queue. Idle: a no-op. */
  async interrupt(conversationId: string): Promise<void> {
    requireConversation(this.deps.conversations, conversationId);
    const turn = this.deps.running.get(conversationId);
    if (!turn) return;
    if (!turn.stopReason && this.deps.pending.listPending(conversationId).length > 0) {
      this.deps.conversations.setQueuePaused(conversationId, true);
      this.deps.publishQueue(conversationId);
    }
    turn.stop("interrupt", this.deps.timings.stopDeadlineMs);
    await turn.done;
  }

  /** For delete: the running turn is cancelled and leaves nothing behind, not even events. */
  async discard(conversationId: string): Promise<void> {
    const turn = this.deps.running.get(conversationId);
    if (!turn) return;
    turn.stop("discard", this.deps.timings.stopDeadlineMs);
    await turn.done;
  }

  /** Restart recovery: no row stays streaming; a surviving queue waits for the owner. */
  recover(): RecoveredState {
    const { tx, messages, pending, conversations } = this.deps;
    return tx.transaction(() => {
      const interrupted = messages.failStreamingMessages(DAEMON_RESTART);
      // A queue holding only messages sent later is not paused: their times are the owner's
      // standing word, and one that came due while down is sent on start (SendLater.start).
      const paused = pending.conversationsWithPending(true);
      for (const id of paused) conversations.setQueuePaused(id, true);
      return { interrupted, paused };
    });
  }

  /** Every running turn ends as `daemon_shutdown`; resolves when each has finalised (or been abandoned). */
  async shutdown(): Promise<void> {
    const turns = this.deps.running.all();
    for (const t of turns) t.stop("shutdown", this.deps.timings.stopDeadlineMs);
    await Promise.allSettled(turns.map((t) => t.done));
  }

  private after(turn: ActiveTurn): void {
    this.deps.running.free(turn);
    if (turn.stopReason === "discard") {
      this.deps.questions.forget(turn.conversationId);
      return;
    }
    const bus = this.deps.hub.peek(turn.conversationId);
    bus?.endTurn();
    this.deps.hub.release(turn.conversationId);
    this.announce(turn.conversationId);
    const conv = this.deps.conversations.getConversation(turn.conversationId);
    if (conv) this.deps.alerts?.turnEnded(conv, turn.outcome, turn.stopReason);
    if (turn.outcome?.type === "turn_error" && turn.outcome.code === "plan_limit") this.deps.park(turn.conversationId);
    if (turn.stopReason !== "shutdown") void this.deps.advance(turn.conversationId);
  }

  private adapterServices(conversationId: string): AdapterServices {
    const { conversations, clock } = this.deps;
    return {
      saveSessionId: (sessionId) => {
        const conv = conversations.getConversation(conversationId);
        if (conv) conversations.setAgentConfig(conversationId, withSessionId(conv.agentConfig, sessionId));
      },
      audit: (action, details) => this.deps.audit("agent", action, { conversation_id: conversationId, ...details }, clock.now()),
      // A lost agent session restarts with the conversation so far (application/agent-sessions).
      reseed: (text, signal) =>
        seededPrompt(historyBefore((n) => this.deps.messages.listMessages(conversationId, undefined, n).messages), text, { condense: this.deps.condense, signal }),
      // Looked up at ask time: a warm agent session outlives the turn it was built for.
      ask: (questions, asked) => {
        const turn = this.deps.running.get(conversationId);
        if (!turn?.questions || turn.stopReason) return Promise.reject(new QuestionCancelled("none"));
        // The agent wrote these: scrubbed like its reply before the page, the phone or an alert shows them.
        const shown = this.deps.scrubber ? this.deps.scrubber.scrubValue(questions) : questions;
        return turn.questions.ask(shown, turn.controller.signal, asked?.toolUseId);
      },
    };
  }

  private announce(conversationId: string): void {
    const conv = this.deps.conversations.getConversation(conversationId);
    if (conv) this.deps.listEvents.emit({ type: "conversation_updated", conversation: toConversationOut(conv, this.isRunning(conv.id), this.deps.threadNouns) });
  }
}
