import type { AlertKind, AlertSettingsOut, Question, QuestionSettingsOut, TurnDoneEvent, TurnErrorEvent } from "@coffer/protocol";
import type { Conversation } from "../../domain/conversation.js";
import type { Logger } from "../ports.js";
import type { ConversationListEvents } from "../turns/list-events.js";
import type { StopReason } from "../turns/active-turn.js";
import type { AlarmClock } from "../timing/alarm-ports.js";
import type { AskedNotice, HoldNotice, TurnAlerts } from "../turns/turn-alert-ports.js";
import type { OpenQuestionLedger } from "./open-question-ledger.js";
import { QuestionEscalation, type EscalationStep } from "./question-escalation.js";

export type { HoldNotice } from "../turns/turn-alert-ports.js";

/** One thing the owner may want to hear about, whichever surface tells them. */
export interface OwnerAlert {
  readonly conversation: Conversation;
  readonly kind: AlertKind;
  /** The failure's message or the question's text; null for a finished turn. */
  readonly detail: string | null;
  /** The question this alert is about (question_asked only). */
  readonly questionId?: string;
  /** The "still waiting" reminder of a question still open (issue 27). */
  readonly reminder?: boolean;
}

/** A question that was open when the daemon stopped or died: its turn ended with the process. */
export interface LostQuestion {
  readonly conversation: Conversation;
  readonly questionId: string;
  readonly detail: string | null;
  readonly askedAt: number;
}

/** A question's alerts come down: it was answered (`by` the surface) or its turn ended (`by` null). */
export interface AlertWithdrawal {
  readonly conversation: Conversation;
  readonly questionId: string;
  readonly by: string | null;
  /** Whether the phone had been told of it (only then is a line there worth sending). */
  readonly phoned: boolean;
}

/** A surface beyond the page (Telegram today): alerts pass the owner's settings first. */
export interface AlertSink {
  readonly surface: Exclude<keyof AlertSettingsOut, "browser">;
  alert(alert: OwnerAlert): void;
  holdChanged?(notice: HoldNotice): void;
  withdrawn?(withdrawal: AlertWithdrawal): void;
  /** A question a restart took with its turn (told once, whatever the alert settings say). */
  lost?(lost: LostQuestion): void;
}

/** How open questions escalate (issue 27); without it the phone hears at once and nothing is reminded. */
export interface EscalationDeps {
  readonly alarms: AlarmClock;
  readonly settings: { get(): QuestionSettingsOut };
  /** Open questions, stored, so a restart cannot drop one silently (reportLost). */
  readonly ledger?: OpenQuestionLedger;
}

/**
 * What a turn's end means for the owner: a turn they stopped (or deleted, or the daemon's
 * own shutdown) alerts nobody — they know; every other end is "finished" or "failed".
 */
export function alertKindFor(outcome: TurnDoneEvent | TurnErrorEvent | null, stopReason: StopReason | null): AlertKind | null {
  if (!outcome || stopReason === "interrupt" || stopReason === "discard" || stopReason === "shutdown") return null;
  if (outcome.type === "turn_error") return "turn_failed";
  return outcome.stop_reason === "interrupted" ? null : "turn_finished";
}

/** The first question's text, on one line: what a notification has room for. */
export function questionDetail(questions: readonly Question[]): string | null {
  const first = questions[0];
  if (!first) return null;
  const text = first.text.replace(/\s+/g, " ").trim();
  return questions.length > 1 ? `${text} (+${questions.length - 1} more)` : text;
}

/**
 * Fans the owner's alerts out: to the page over the conversation-list stream (the page
 * decides whether the owner is looking) and to every registered sink, each filtered by the
 * owner's alert settings, read at the moment of the alert. A sink's failure stays its own.
 */
export class OwnerAlerts implements TurnAlerts {
  private readonly sinks = new Set<AlertSink>();
  private readonly escalation: QuestionEscalation | null;
  private readonly ledger: OpenQuestionLedger | null;
  /** Set while the daemon stops: questions closing now are lost to the restart, not answered. */
  private stopping = false;

  constructor(
    private readonly settings: { get(): AlertSettingsOut },
    private readonly listEvents: ConversationListEvents,
    private readonly logger: Logger,
    escalation?: EscalationDeps,
  ) {
    this.escalation = escalation
      ? new QuestionEscalation(escalation.alarms, escalation.settings, {
          phone: (step) => this.guard(() => this.toSinks(questionAlert(step, false))),
          remind: (step) => this.guard(() => this.raise(questionAlert(step, true))),
        })
      : null;
    this.ledger = escalation?.ledger ?? null;
  }

  addSink(sink: AlertSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  turnEnded(conversation: Conversation, outcome: TurnDoneEvent | TurnErrorEvent | null, stopReason: StopReason | null): void {
    const kind = alertKindFor(outcome, stopReason);
    if (!kind) return;
    this.raise({ conversation, kind, detail: outcome?.type === "turn_error" ? outcome.message : null });
  }

  /**
   * The page hears at once; the phone and the reminder follow the owner's question settings
   * (question-escalation.ts), unless no escalation is wired (then the phone hears at once too).
   */
  questionAsked(conversation: Conversation, asked: AskedNotice): void {
    const step: EscalationStep = { conversation, questionId: asked.questionId, detail: questionDetail(asked.questions) };
    if (!this.escalation) return this.raise(questionAlert(step, false));
    this.guard(() => this.ledger?.add({ conversation_id: conversation.id, question_id: asked.questionId, asked_at: asked.askedAt, detail: step.detail }));
    this.toPage(questionAlert(step, false));
    this.escalation.opened(conversation, asked, step.detail);
  }

  /** Answered anywhere, or its turn ended: nothing more is armed, and every surface takes its alert down. */
  questionClosed(conversation: Conversation, questionId: string, by: string | null): void {
    const closed = this.escalation?.closed(conversation.id, questionId) ?? null;
    this.listEvents.emit({ type: "conversation_alert_withdrawn", conversation_id: conversation.id, question_id: questionId, by });
    // Stopping: the ledger keeps it and the next start says it was lost (one message, not two).
    if (this.stopping && by === null) return;
    this.guard(() => this.ledger?.remove(conversation.id, questionId));
    const withdrawal: AlertWithdrawal = { conversation, questionId, by, phoned: closed ? closed.phoned : !this.escalation };
    for (const sink of this.sinks) this.guard(() => sink.withdrawn?.(withdrawal));
  }

  /** The daemon is stopping: its turns (and their questions) end now, and the next start tells the owner. */
  stop(): void {
    this.stopping = true;
  }

  /**
   * At start: the questions the last run left open (a stop or a crash ended their turns; a
   * question cannot outlive its turn, so none can be re-armed). Each is told once — the page's
   * alert and every sink — then forgotten. `conversationOf` null: deleted since, nothing to tell.
   */
  reportLost(conversationOf: (id: string) => Conversation | null): number {
    const entries = this.ledger?.take() ?? [];
    let told = 0;
    for (const e of entries) {
      const conversation = conversationOf(e.conversation_id);
      if (!conversation) continue;
      const lost: LostQuestion = { conversation, questionId: e.question_id, detail: e.detail, askedAt: e.asked_at };
      this.whenPageListens(() =>
        this.listEvents.emit({ type: "conversation_alert", conversation_id: conversation.id, title: conversation.title, kind: "turn_failed", detail: lostDetail(lost) }),
      );
      for (const sink of this.sinks) this.guard(() => sink.lost?.(lost));
      told++;
    }
    return told;
  }

  /** How many open questions still have an escalation step armed. */
  get escalating(): number {
    return this.escalation?.size ?? 0;
  }

  holdChanged(notice: HoldNotice): void {
    for (const sink of this.sinks) this.guard(() => sink.holdChanged?.(notice));
  }

  /** The list stream has no replay: an alert raised at start waits for the first page to listen. */
  private whenPageListens(emit: () => void): void {
    if (this.listEvents.listenerCount > 0) return emit();
    this.pendingForPage.push(emit);
    this.unlistenFirst ??= this.listEvents.onFirstListener(() => {
      this.unlistenFirst = null;
      for (const e of this.pendingForPage.splice(0)) this.guard(e);
    });
  }

  private readonly pendingForPage: (() => void)[] = [];
  private unlistenFirst: (() => void) | null = null;

  private raise(alert: OwnerAlert): void {
    this.toPage(alert);
    this.toSinks(alert);
  }

  private toPage(alert: OwnerAlert): void {
    if (!this.settings.get().browser[alert.kind]) return;
    this.listEvents.emit({
      type: "conversation_alert",
      conversation_id: alert.conversation.id,
      title: alert.conversation.title,
      kind: alert.kind,
      detail: alert.detail,
      ...(alert.questionId ? { question_id: alert.questionId } : {}),
      ...(alert.reminder ? { reminder: true } : {}),
    });
  }

  private toSinks(alert: OwnerAlert): void {
    const settings = this.settings.get();
    for (const sink of this.sinks) if (settings[sink.surface][alert.kind]) this.guard(() => sink.alert(alert));
  }

  private guard(work: () => void): void {
    try {
      work();
    } catch (err) {
      this.logger.warn("an alert could not be delivered", { err: err instanceof Error ? err.message : String(err) });
    }
  }
}

/** What the page and the phone say of a question a restart took. */
export function lostDetail(lost: LostQuestion): string {
  const asked = lost.detail ? `“${lost.detail}”` : "its question";
  return `Coffer restarted while the agent waited on ${asked}: the question ended with its turn and cannot be answered. Send the request again to continue.`;
}

function questionAlert(step: EscalationStep, reminder: boolean): OwnerAlert {
  return { conversation: step.conversation, kind: "question_asked", detail: step.detail, questionId: step.questionId, ...(reminder ? { reminder: true } : {}) };
}
